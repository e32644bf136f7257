// The identification error screens (spec §2 "Identification error screens", §8): title, text and the
// one button each error offers. An unknown error never gets here: it is stored as TRY_AGAIN_ERROR.
import type { Request, Response } from 'express';
import type { AppDeps } from '../../deps.ts';
import { sendPage, shellFor } from '../../pages.ts';
import { IdentificationErrorPage, type ErrorAction } from '../../../views/pages/IdentificationErrorPage.tsx';
import type { IdentificationError } from '../../../shared/routing.ts';

export function renderIdentificationError(req: Request, res: Response, deps: AppDeps, error: IdentificationError): void {
  const t = shellFor(req, deps).t;
  const actions: Record<IdentificationError, ErrorAction | null> = {
    MANUAL_SUPPORT_ERROR: { label: t('identificationError.MANUAL_SUPPORT_ERROR.button'), href: deps.config.MANUAL_SUPPORT_URL },
    BLOCK_CUSTOMER_ERROR: null,
    TRY_AGAIN_ERROR: { label: t('identificationError.TRY_AGAIN_ERROR.button'), post: { action: '/onboarding/customer-type', name: 'customerType', value: 'private' } },
    MINOR_ERROR: { label: t('identificationError.MINOR_ERROR.button'), post: { action: '/onboarding/customer-type', name: 'customerType', value: 'minor' } },
    LOGIN_ERROR: { label: t('identificationError.LOGIN_ERROR.button'), href: deps.config.LOGIN_URL },
  };
  sendPage(req, res, deps, {
    progress: 1,
    hideClose: error === 'LOGIN_ERROR',
    body: <IdentificationErrorPage t={t} error={error} action={actions[error]} />,
  });
}
