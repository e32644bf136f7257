// The identification view for the journey's country (identification-routing-creation §2
// "Identification screens"): Swedish BankID runs here; Denmark, Norway and Finland leave for the
// identification broker (OIDC).
import type { Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import type { Journey } from '../../journey.ts';
import { journeyOf, shellFor } from '../../pages.ts';
import { page, type Outcome } from '../../pageKit/definePage.ts';
import { bankidIdentification, startBankidOnPrivateChoice } from './bankidPage.tsx';
import { oidcIdentificationPage } from './oidcPage.tsx';
import { NotImplementedPage } from '../../../views/pages/IdentificationErrorPageView.tsx';

export async function identification(req: Request, deps: AppDeps): Promise<Outcome> {
  const journey = journeyOf(req, deps);
  switch (journey.country) {
    case 'SE':
      return bankidIdentification(req, deps);
    case 'DK':
    case 'NO':
    case 'FI':
      return page(oidcIdentificationPage(req, deps, journey.country));
    default:
      return page({ progress: 1, body: <NotImplementedPage t={shellFor(req, deps).t} /> });
  }
}

/**
 * Private was chosen (the person's click, a POST): what identification starts right away. In SE on a
 * desktop the BankID QR order (its screen shows the QR code directly); everywhere else the
 * identification screen's own button starts it (the device choice; the broker page's Continue).
 */
export async function startIdentification(req: Request, deps: AppDeps, journey: Journey): Promise<void> {
  if (journey.country === 'SE') await startBankidOnPrivateChoice(req, deps, journey);
}
