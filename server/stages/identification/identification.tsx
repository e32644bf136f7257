// The identification view for the journey's country (spec §2 "Identification screens"): Swedish
// BankID runs here; Denmark, Norway and Finland leave for the identification broker (OIDC).
import type { Request, Response } from 'express';
import type { AppDeps } from '../../deps.ts';
import { journeyOf, sendPage, shellFor } from '../../pages.ts';
import { renderBankidIdentification } from './bankid.tsx';
import { renderOidcIdentification } from './oidc.tsx';
import { NotImplementedPage } from '../../../views/pages/IdentificationErrorPage.tsx';

export async function renderIdentification(req: Request, res: Response, deps: AppDeps): Promise<void> {
  const journey = journeyOf(req, deps);
  switch (journey.country) {
    case 'SE':
      return renderBankidIdentification(req, res, deps);
    case 'DK':
    case 'NO':
    case 'FI':
      return renderOidcIdentification(req, res, deps, journey.country);
    default: {
      const t = shellFor(req, deps).t;
      sendPage(req, res, deps, { progress: 1, body: <NotImplementedPage t={t} /> });
    }
  }
}
