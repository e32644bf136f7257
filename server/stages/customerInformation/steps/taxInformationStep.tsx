// Tax information (customer-information §2.3, §4.5, §4.7, §5, §7, §8). Screens: liability, countries, numbers,
// residenceProof (with FLAG_TAX_RESIDENCE and its case), and two dialogs: fatca (§4.7) over the liability and the
// countries, and failure (§4.5) answering a refused tax submit; each a screen of its own without JavaScript and a
// modal in place with it.
import { z } from 'zod';
import { back, finish, stepOf, type ScreenOutcome } from '../stepModule.ts';
import {
  addressCountryOf,
  answersOf,
  countriesView,
  fatcaProps,
  failureProps,
  liabilityView,
  numbersView,
  proofSlots,
  proofView,
  rulesByCountry,
  todayOf,
  type NumberErrors,
  type Ctx,
  type ResidenceProof,
  type TaxScreen,
} from './taxInformationViews.tsx';
import { withRetries } from '../../../upstream/retry.ts';
import { uploadScreen } from '../fileUploadScreen.tsx';
import { isCountryCode } from '../../../../shared/countries.ts';
import {
  attestsFatca,
  decideCountries,
  decideLiability,
  foreignTaxCountries,
  homeOnlySubmission,
  normaliseTin,
  startDateValid,
  taxInfoSubmission,
  taxLiabilities,
  taxResidenceCasePlan,
  taxResidenceCountryOf,
  taxResidenceRequired,
  tinError,
  type TaxInfoSubmission,
} from '../../../../shared/taxInformation.ts';
import { sensitiveAnswerRules } from '../../../../shared/sensitiveAnswers.ts';
import { Dialog } from '../../../../views/components/Dialog.tsx';

type Outcome = ScreenOutcome<TaxScreen>;
const { defineStep, screen, goTo, again } = stepOf<TaxScreen>();

// A form value: one text, or the first of repeated ones; capped so a huge post cannot bloat the session.
const text = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : v).slice(0, 200))
  .optional()
  .catch(undefined);
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => [v].flat())
  .optional()
  .catch(undefined);
// Set by the page's JavaScript (views/components/ScriptMarker.tsx): a refusal then answers with the modal.
const enhanced = z.literal('yes').optional().catch(undefined);
const validCountries = (posted: readonly string[] | undefined) => [...new Set((posted ?? []).filter((c) => isCountryCode(c)))];

// --- submit --------------------------------------------------------------------------------------

/**
 * The numbers become the screen shown, as goTo('numbers') would make them (shared/pageMachine.ts: the
 * proof leaves the Back list), for a response that shows them at once: the failure modal over them opens
 * in the refused post's own response (a GET changes nothing, so no flag may carry it to the next one),
 * and the form under it must post as the screen shown.
 */

/**
 * POST submit tax info (v3), then `afterSuccess` (the proof of tax residence). A refusal opens the failure
 * dialog listing the server's invalid fields (customer-information §4.5): for an enhanced post (from the
 * numbers or the proof) a modal over the numbers form in this response, otherwise the `failure` screen;
 * either way 'try again' leads back to the numbers.
 */
async function submitTax(ctx: Ctx, body: TaxInfoSubmission, options: { enhanced?: boolean; afterSuccess?: () => Promise<void> } = {}): Promise<Outcome> {
  const answers = answersOf(ctx);
  const result = await ctx.brokerage.submitTaxInfo(ctx.prospectId, body);
  if (result.ok) {
    delete answers.invalidFields;
    await options.afterSuccess?.();
    return finish;
  }
  // Field names only (no values) are logged: they carry no personal data.
  ctx.deps.logger.info({ invalidFields: result.invalidFields }, 'tax information refused');
  answers.invalidFields = result.invalidFields;
  if (!options.enhanced) return goTo('failure');
  // The numbers form under the modal is the current screen from now on (its Try again only closes the modal).
  return again(await numbersView(ctx, { failureModal: true }), 400, { screen: 'numbers' });
}

/** customer-information §4.7: the FATCA dialog's primary action resets the answer to the in-country one and submits home only. */
function attest(ctx: Ctx): Promise<Outcome> {
  const answers = answersOf(ctx);
  answers.liability = sensitiveAnswerRules.taxLiability.resetTo;
  answers.countries = [ctx.journey.country];
  return submitTax(ctx, homeOnlySubmission());
}

/**
 * The proof of tax residence (customer-information §2.3) goes to a TAX_RESIDENCE case (POST create case,
 * tried 10 times, customer-information §9); re-entering for the same country reuses it.
 */
async function openResidenceProof(ctx: Ctx, asked: boolean): Promise<Outcome> {
  const answers = answersOf(ctx);
  const countryCode = taxResidenceCountryOf(asked, answers.taxResidenceCountryCode, ctx.journey.country);
  const existing = answers.residenceProof;
  const plan = taxResidenceCasePlan(existing, countryCode);
  if (plan !== 'reuse') {
    const body = {
      prospectId: ctx.prospectId,
      type: 'TAX_RESIDENCE' as const,
      ...(plan === 'update' && existing ? { taskId: existing.taskId } : {}),
      taskData: { countryCode },
      attachments: [],
    };
    const taskId = await withRetries(() => ctx.brokerage.createCase(body), ctx.deps.config.FILE_RETRY_DELAY_MS);
    answers.residenceProof = { countryCode, taskId, files: [] };
  }
  return goTo('residenceProof');
}

/** POST submit tax residence (customer-information §7), tried 10 times (customer-information §9): the uploaded proof on its case. */
async function submitResidence(ctx: Ctx, proof: ResidenceProof): Promise<void> {
  const body = {
    prospectId: ctx.prospectId,
    type: 'TAX_RESIDENCE' as const,
    nnxTaskId: proof.taskId,
    taskData: { countryCode: proof.countryCode },
    attachments: proof.files.map((f) => ({ attachmentId: f.attachmentId })),
  };
  await withRetries(() => ctx.brokerage.submitTaxResidence(body), ctx.deps.config.FILE_RETRY_DELAY_MS);
}

// --- screens -------------------------------------------------------------------------------------

/** Only home, the USA, or other countries (customer-information §4.5). */
const liability = screen({
  input: z.object({
    liability: z.enum(taxLiabilities).optional().catch(undefined),
    // With JavaScript, the FATCA modal's attest (useConfirmThenSubmit in views/components/TaxLiabilityChoice.tsx).
    intent: z.literal('attest').optional().catch(undefined),
  }),
  view: (ctx) => liabilityView(ctx),
  submit(ctx, input) {
    const answers = answersOf(ctx);
    const home = ctx.journey.country;
    if (input.intent === 'attest') {
      // Taken only if what the form posts really is a FATCA case; otherwise the screen again, nothing saved.
      return attestsFatca({ screen: 'liability', liability: input.liability }, home, addressCountryOf(ctx)) ? attest(ctx) : goTo('liability');
    }
    if (!input.liability) return again(liabilityView(ctx, ctx.t('taxInformation.liability.required')));
    answers.liability = input.liability;
    switch (decideLiability(input.liability, home, addressCountryOf(ctx))) {
      case 'submitHomeOnly':
        answers.countries = [home];
        return submitTax(ctx, homeOnlySubmission());
      case 'fatcaDialog':
        return goTo('fatca');
      case 'chooseCountries':
        // Coming from home only, start from an empty choice rather than a preselected home country.
        if (answers.countries?.length === 1 && answers.countries[0] === home) answers.countries = [];
        // A fresh search each time the list is entered from the choice.
        answers.search = '';
        return goTo('countries');
    }
  },
});

/** The tax countries: at least one; only home submits home only, the US is FATCA (customer-information §4.5). */
const countries = screen({
  input: z.object({
    countries: list,
    // The no-JS server search: the search box and its button.
    q: text,
    intent: z.enum(['continue', 'search', 'attest']).optional().catch(undefined),
  }),
  view: (ctx) => countriesView(ctx),
  submit(ctx, input) {
    const answers = answersOf(ctx);
    const home = ctx.journey.country;
    const chosen = validCountries(input.countries);
    if (input.intent === 'attest') {
      // Taken only if what the form posts really is a FATCA case; otherwise the screen again, nothing saved.
      return attestsFatca({ screen: 'countries', countries: chosen }, home, addressCountryOf(ctx)) ? attest(ctx) : goTo('countries');
    }
    answers.countries = chosen;
    answers.search = input.q?.trim() ?? '';
    if (input.intent === 'search') return goTo('countries');
    switch (decideCountries(chosen, home)) {
      case 'chooseAtLeastOne':
        return again(countriesView(ctx, ctx.t('taxInformation.countries.required')));
      case 'fatcaDialog':
        return goTo('fatca');
      case 'submitHomeOnly':
        return submitTax(ctx, homeOnlySubmission());
      case 'enterNumbers':
        return goTo('numbers');
    }
  },
});

/**
 * A number and start date per foreign country (customer-information §5 "Tax identification numbers"), and
 * with FLAG_TAX_RESIDENCE the tax residence country when the address is abroad. Then the proof (with the
 * flag) or the tax submit.
 */
const numbers = screen({
  // tin_<country> and startDate_<country> are read per chosen country in submit (`text`).
  input: z.object({ taxResidenceCountryCode: text, enhanced }).catchall(z.unknown()),
  view: (ctx) => numbersView(ctx),
  async submit(ctx, input) {
    const answers = answersOf(ctx);
    const home = ctx.journey.country;
    const field = (name: string) => text.parse(input[name]) ?? '';
    const rules = await rulesByCountry(ctx);
    const today = todayOf(ctx);
    const errors: NumberErrors = { tin: {}, startDate: {} };
    answers.numbers = {};
    for (const c of foreignTaxCountries(answers.countries ?? [], home)) {
      const entry = { tin: field(`tin_${c}`), startDate: field(`startDate_${c}`) };
      answers.numbers[c] = entry;
      const problem = tinError(normaliseTin(c, entry.tin), rules.get(c));
      if (problem?.kind === 'required') errors.tin[c] = ctx.t('taxInformation.numbers.tinRequired');
      else if (problem)
        errors.tin[c] = problem.placeholder
          ? ctx.t('taxInformation.numbers.wrongFormat', { placeholder: problem.placeholder })
          : ctx.t('taxInformation.numbers.wrongFormatPlain');
      if (!startDateValid(entry.startDate, today)) errors.startDate[c] = ctx.t('taxInformation.numbers.startDateError');
    }
    const residenceNeeded = taxResidenceRequired(ctx.deps.config.FLAG_TAX_RESIDENCE, home, addressCountryOf(ctx));
    if (residenceNeeded) {
      const residence = input.taxResidenceCountryCode;
      answers.taxResidenceCountryCode = residence !== undefined && isCountryCode(residence) ? residence : undefined;
      if (!answers.taxResidenceCountryCode) errors.taxResidence = ctx.t('taxInformation.numbers.taxResidenceError');
    }
    if (Object.keys(errors.tin).length || Object.keys(errors.startDate).length || errors.taxResidence) {
      return again(await numbersView(ctx, { errors, rules }));
    }
    if (ctx.deps.config.FLAG_TAX_RESIDENCE) return openResidenceProof(ctx, residenceNeeded);
    return submitTax(ctx, taxInfoSubmission(answers.countries ?? [], home, answers.numbers), { enhanced: input.enhanced === 'yes' });
  },
});

/** Proof of tax residence (customer-information §2.3, only with FLAG_TAX_RESIDENCE): Continue submits the tax information, then the proof. */
const residenceProof = uploadScreen({
  // A session from before the flag changed, or without its case, starts the step again.
  available: (ctx) => ctx.deps.config.FLAG_TAX_RESIDENCE && ctx.ci.answers?.taxInformation?.residenceProof !== undefined,
  slots: (ctx) => proofSlots(answersOf(ctx).residenceProof),
  setFiles(ctx, slot, files) {
    const proof = answersOf(ctx).residenceProof;
    if (proof?.countryCode === slot) proof.files = files;
  },
  view: proofView,
  missing: (ctx) => ctx.t('taxInformation.proof.missing'),
  finish(ctx, input) {
    const answers = answersOf(ctx);
    const proof = answers.residenceProof!;
    const body = taxInfoSubmission(answers.countries ?? [], ctx.journey.country, answers.numbers ?? {});
    return submitTax(ctx, body, { enhanced: input.enhanced === 'yes', afterSuccess: () => submitResidence(ctx, proof) });
  },
});

/** FATCA as a screen (no JavaScript): attest resets to home only and submits it; cancel returns to the screen under it. */
const fatca = screen({
  dialogOver: ['liability', 'countries'],
  input: z.object({ intent: z.enum(['attest', 'cancel']) }),
  view: (ctx) => <Dialog {...fatcaProps(ctx)} />,
  submit(ctx, input) {
    if (input.intent === 'attest') return attest(ctx);
    return back;
  },
});

/**
 * The refused tax submit (customer-information §4.5, §8) as a screen; with JavaScript a modal over the
 * numbers (submitTax). 'I want to try again': the numbers, as typed, when there are any; else the liability.
 */
const failure = screen({
  dialogOver: ['numbers', 'residenceProof'],
  input: z.object({ intent: z.literal('retry') }),
  view: (ctx) => <Dialog {...failureProps(ctx)} />,
  submit(ctx) {
    const answers = answersOf(ctx);
    const hasNumbers = foreignTaxCountries(answers.countries ?? [], ctx.journey.country).length > 0;
    return goTo(answers.liability === 'other' && hasNumbers ? 'numbers' : 'liability');
  },
});

export const taxInformation = defineStep({
  id: 'TAX_INFO_STEP',
  first: 'liability',
  answers: 'taxInformation',
  screens: { liability, countries, numbers, residenceProof, fatca, failure },
});
