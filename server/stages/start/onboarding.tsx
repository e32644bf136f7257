// Onboarding (the start path): customer type selection, then the country's identification view, or
// an identification error screen (spec §2 "Customer type selection", "Identification error screens").
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { applyEntryQuery, journeyOf, sendPage, shellFor } from '../../pages.ts';
import { CustomerTypePage, ExternalFormPage } from '../../../views/pages/CustomerTypePage.tsx';
import { renderIdentificationError } from '../identification/identificationError.tsx';
import { renderIdentification } from '../identification/identification.tsx';

const customerTypeBody = z.object({ customerType: z.enum(['private', 'corporate', 'minor', 'none']) });

export function onboardingRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get('/onboarding', async (req, res, next) => {
    try {
      applyEntryQuery(req, deps);
      const journey = journeyOf(req, deps);
      if (journey.identificationError) return renderIdentificationError(req, res, deps, journey.identificationError);
      if (journey.customerType === 'corporate' || journey.customerType === 'minor') {
        const t = shellFor(req, deps).t;
        const formUrl = journey.customerType === 'corporate' ? deps.config.BUSINESS_FORM_URL : deps.config.MINOR_FORM_URL;
        return sendPage(req, res, deps, {
          progress: 1,
          body: <ExternalFormPage t={t} type={journey.customerType} formUrl={formUrl} resetAction="/onboarding/customer-type" />,
        });
      }
      if (journey.customerType === 'private') return await renderIdentification(req, res, deps);
      const t = shellFor(req, deps).t;
      sendPage(req, res, deps, {
        progress: 1,
        body: <CustomerTypePage t={t} action="/onboarding/customer-type" loginUrl={deps.config.LOGIN_URL} />,
      });
    } catch (err) {
      next(err);
    }
  });

  router.post('/onboarding/customer-type', (req, res) => {
    const parsed = customerTypeBody.safeParse(req.body);
    const journey = journeyOf(req, deps);
    if (parsed.success) {
      journey.customerType = parsed.data.customerType;
      // Choosing (or resetting) the applicant type starts identification afresh.
      delete journey.identificationError;
      delete journey.bankid;
    }
    res.redirect(303, '/onboarding');
  });

  return router;
}
