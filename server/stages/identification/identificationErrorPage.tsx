// The identification error screens (identification-routing-creation §2 "Identification error screens", §8): title, text and the
// one button each error offers. An error this product does not know shows the try-again screen.
import type { Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import { shellFor, type PageOptions } from '../../pages.ts';
import { IdentificationErrorPage, type ErrorAction } from '../../../views/pages/IdentificationErrorPageView.tsx';
import { identificationErrors, type IdentificationError } from '../../../shared/routing.ts';
import { routes } from '../../../shared/routes.ts';

const customerTypeAction = routes.customerType;

export function knownIdentificationError(error: string): IdentificationError {
  return (identificationErrors as readonly string[]).includes(error) ? (error as IdentificationError) : 'TRY_AGAIN_ERROR';
}

export function identificationErrorPage(req: Request, deps: AppDeps, stored: string): PageOptions {
  const error = knownIdentificationError(stored);
  const t = shellFor(req, deps).t;
  const actions: Record<IdentificationError, ErrorAction | null> = {
    MANUAL_SUPPORT_ERROR: { label: t('identificationError.MANUAL_SUPPORT_ERROR.button'), href: deps.config.MANUAL_SUPPORT_URL },
    BLOCK_CUSTOMER_ERROR: null,
    // Try again starts identification afresh as a private applicant; Continue (minor) leads to the minor forms.
    TRY_AGAIN_ERROR: { label: t('identificationError.TRY_AGAIN_ERROR.button'), post: { action: customerTypeAction, name: 'customerType', value: 'private' } },
    MINOR_ERROR: { label: t('identificationError.MINOR_ERROR.button'), post: { action: customerTypeAction, name: 'customerType', value: 'minor' } },
    LOGIN_ERROR: { label: t('identificationError.LOGIN_ERROR.button'), href: deps.config.LOGIN_URL },
  };
  return {
    progress: 1,
    // The shell's Back (customer type none) also clears the error: see POST /onboarding/customer-type.
    hideClose: error === 'LOGIN_ERROR',
    funnel: { step: 'identification', screen: error },
    body: <IdentificationErrorPage t={t} error={error} action={actions[error]} />,
  };
}
