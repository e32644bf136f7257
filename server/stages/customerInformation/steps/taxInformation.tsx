// Tax information (customer-information.md §2.3, §4.5, §4.7, §5 "Tax identification numbers", §7, §8).
// Sub-steps: 0 liability, 1 countries, 2 tax identification numbers, 3 proof of tax residence (only with
// FLAG_TAX_RESIDENCE). The FATCA and tax-failure dialogs: without JavaScript screens of their own (the
// answers' `dialog`; header Back closes them); with JavaScript modals — FATCA opens in place and its attest
// posts the sub-step's own form (checked here to really be a FATCA case), the failure dialog opens over
// the numbers form after an enhanced post was refused (the answers' one-shot `failureModal`).
import { z } from 'zod';
import type { StepContext, StepModule, StepOutcome } from '../stepModule.ts';
import type { StepAnswers } from '../../../journey.ts';
import { localeOf } from '../../../pages.ts';
import { withRetries } from '../../../upstream/retry.ts';
import { removeFile, uploadFile } from '../uploads.ts';
import { countryName, countryOptions, isCountryCode } from '../../../../shared/countries.ts';
import {
  attestsFatca,
  decideCountries,
  decideLiability,
  foreignTaxCountries,
  homeOnlySubmission,
  invalidFieldOf,
  normaliseTin,
  startDateValid,
  taxInfoSubmission,
  taxLiabilities,
  taxResidenceCasePlan,
  taxResidenceCountryOf,
  taxResidenceRequired,
  tinError,
  type TaxInfoSubmission,
  type TinRule,
} from '../../../../shared/taxInformation.ts';
import { sensitiveAnswerRules } from '../../../../shared/sensitiveAnswers.ts';
import { Dialog } from '../../../../views/components/Dialog.tsx';
import { removeFileDialog } from '../../../../views/components/FileUpload.tsx';
import {
  fatcaDialog,
  taxFailureDialog,
  TaxCountriesForm,
  TaxLiabilityForm,
  TaxNumbersForm,
  TaxResidenceProofForm,
  type TinRow,
} from '../../../../views/pages/TaxInformationStep.tsx';

type TaxAnswers = NonNullable<StepAnswers['taxInformation']>;
type ResidenceProof = NonNullable<TaxAnswers['residenceProof']>;

const STEP = 'TAX_INFO_STEP' as const;

// A form value: one text, or the first of repeated ones; capped so a huge post cannot bloat the session.
const text = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : v).slice(0, 200))
  .optional();
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => [v].flat())
  .optional();

const postSchema = z.object({
  subStep: text,
  intent: z.enum(['search', 'continue', 'attest', 'retry', 'cancel', 'upload', 'remove', 'finish']).optional().catch(undefined),
  liability: z.enum(taxLiabilities).optional().catch(undefined),
  countries: list,
  q: text,
  taxResidenceCountryCode: text,
  attachmentId: z.string().min(1).max(100).optional().catch(undefined),
  // Set by the page's JavaScript (client/islands/scriptMarker.tsx): a refusal then answers with the modal.
  enhanced: z.literal('yes').optional().catch(undefined),
});
type TaxPost = z.infer<typeof postSchema>;

/** The no-JS screen asking before a proof file is removed (sub-step 3). */
const removeQuery = z.object({ remove: z.string().min(1).max(100) });

function answersOf(ctx: StepContext): TaxAnswers {
  ctx.ci.answers ??= {};
  return (ctx.ci.answers.taxInformation ??= {});
}

/** The country the person lives in: the residency step's address abroad, otherwise home. */
function addressCountryOf(ctx: StepContext): string {
  return ctx.ci.answers?.residency?.addressCountry ?? ctx.journey.country;
}

const timeZones = { SE: 'Europe/Stockholm', NO: 'Europe/Oslo', DK: 'Europe/Copenhagen', FI: 'Europe/Helsinki' } as const;

/** Today in the market's time zone (yyyy-mm-dd): a start date of today is never "in the future" at midnight. */
function todayOf(ctx: StepContext): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: timeZones[ctx.journey.country], year: 'numeric', month: '2-digit', day: '2-digit' }).format(ctx.deps.now());
}

const nameOf = (ctx: StepContext, code: string) => countryName(code, localeOf(ctx.req, ctx.deps));

async function rulesByCountry(ctx: StepContext): Promise<Map<string, TinRule>> {
  const rules = await ctx.deps.brokerage.taxValidationRules(ctx.jwt);
  return new Map(rules.map((r) => [r.countryCode, r]));
}

const validCountries = (posted: readonly string[] | undefined) => [...new Set((posted ?? []).filter((c) => isCountryCode(c)))];

// --- views ---------------------------------------------------------------------------------------

function fatcaProps(ctx: StepContext) {
  return fatcaDialog(ctx.t, {
    action: ctx.action,
    countryName: nameOf(ctx, ctx.journey.country),
    manualFormBase: ctx.deps.config.MANUAL_SUPPORT_URL,
  });
}

/** The server's invalid field names (§4.5), read back as "country: field" lines. */
function failureProps(ctx: StepContext, answers: TaxAnswers, openOnLoad = false) {
  const sent = taxInfoSubmission(answers.countries ?? [], ctx.journey.country, answers.numbers ?? {}).taxInformationListOutsideOfTld;
  const problems = [
    ...new Set(
      (answers.invalidFields ?? []).map((name) => {
        const f = invalidFieldOf(name, sent);
        return f.countryCode ? ctx.t('taxInformation.failure.field', { country: nameOf(ctx, f.countryCode), field: f.field }) : ctx.t('taxInformation.failure.other');
      }),
    ),
  ];
  return taxFailureDialog(ctx.t, { action: ctx.action, problems, formUrl: ctx.deps.config.MANUAL_SUPPORT_URL, openOnLoad });
}

function liabilityView(ctx: StepContext, error?: string) {
  const answers = answersOf(ctx);
  return (
    <TaxLiabilityForm
      t={ctx.t}
      action={ctx.action}
      countryName={nameOf(ctx, ctx.journey.country)}
      home={ctx.journey.country}
      addressCountry={addressCountryOf(ctx)}
      chosen={answers.liability}
      error={error}
      fatca={fatcaProps(ctx)}
    />
  );
}

function countriesView(ctx: StepContext, error?: string) {
  const answers = answersOf(ctx);
  return (
    <TaxCountriesForm
      t={ctx.t}
      action={ctx.action}
      options={countryOptions(localeOf(ctx.req, ctx.deps))}
      chosen={answers.countries ?? []}
      search={answers.search ?? ''}
      error={error}
      fatca={fatcaProps(ctx)}
    />
  );
}

interface NumberErrors {
  tin: Record<string, string>;
  startDate: Record<string, string>;
  taxResidence?: string;
}

async function numbersView(ctx: StepContext, options: { errors?: NumberErrors; rules?: Map<string, TinRule>; failureModal?: boolean } = {}) {
  const { errors } = options;
  const answers = answersOf(ctx);
  const locale = localeOf(ctx.req, ctx.deps);
  const byCountry = options.rules ?? (await rulesByCountry(ctx));
  const rows: TinRow[] = foreignTaxCountries(answers.countries ?? [], ctx.journey.country).map((c) => ({
    countryCode: c,
    countryName: countryName(c, locale),
    tin: answers.numbers?.[c]?.tin ?? '',
    startDate: answers.numbers?.[c]?.startDate ?? '',
    placeholder: byCountry.get(c)?.patternPlaceholder || undefined,
    tinError: errors?.tin[c],
    startDateError: errors?.startDate[c],
  }));
  const residence = taxResidenceRequired(ctx.deps.config.FLAG_TAX_RESIDENCE, ctx.journey.country, addressCountryOf(ctx))
    ? { options: countryOptions(locale), value: answers.taxResidenceCountryCode ?? '', error: errors?.taxResidence }
    : undefined;
  return (
    <TaxNumbersForm
      t={ctx.t}
      action={ctx.action}
      rows={rows}
      today={todayOf(ctx)}
      taxResidence={residence}
      {...(options.failureModal ? { failure: failureProps(ctx, answers, true) } : {})}
    />
  );
}

const removeHref = (ctx: StepContext) => (attachmentId: string) => `${ctx.basePath}?remove=${encodeURIComponent(attachmentId)}`;

function proofView(ctx: StepContext, proof: ResidenceProof, errors: { upload?: string; page?: string } = {}) {
  return (
    <TaxResidenceProofForm
      t={ctx.t}
      action={ctx.action}
      countryCode={proof.countryCode}
      countryName={nameOf(ctx, proof.countryCode)}
      files={proof.files}
      removeHref={removeHref(ctx)}
      {...(errors.upload ? { uploadError: errors.upload } : {})}
      {...(errors.page ? { error: errors.page } : {})}
    />
  );
}

// --- submit --------------------------------------------------------------------------------------

/**
 * POST submit tax info (v3), then `afterSuccess` (the proof of tax residence). A refusal opens the failure
 * dialog listing the server's invalid fields (§4.5): a modal over the numbers form for an enhanced post
 * from sub-step 2 or 3, otherwise its own screen; either way 'try again' leads back to the numbers.
 */
async function submitTax(ctx: StepContext, body: TaxInfoSubmission, options: { enhanced?: boolean; afterSuccess?: () => Promise<void> } = {}): Promise<StepOutcome> {
  const answers = answersOf(ctx);
  const result = await ctx.deps.brokerage.submitTaxInfo(ctx.jwt, ctx.ci.prospectId, body);
  if (result.ok) {
    delete answers.dialog;
    delete answers.invalidFields;
    delete answers.failureModal;
    await options.afterSuccess?.();
    return { kind: 'advance' };
  }
  // Field names only (no values) are logged: they carry no personal data.
  ctx.deps.logger.info({ invalidFields: result.invalidFields }, 'tax information refused');
  answers.invalidFields = result.invalidFields;
  if (options.enhanced) {
    answers.failureModal = true;
    return { kind: 'subStep', subStep: 2 };
  }
  answers.dialog = 'TAX_FAILURE';
  return { kind: 'subStep', subStep: ctx.ci.subStep ?? 0 };
}

/** §4.7: the FATCA dialog's primary action resets the answer to the in-country one and submits home only. */
function attest(ctx: StepContext): Promise<StepOutcome> {
  const answers = answersOf(ctx);
  delete answers.dialog;
  answers.liability = sensitiveAnswerRules.taxLiability.resetTo;
  answers.countries = [ctx.journey.country];
  return submitTax(ctx, homeOnlySubmission());
}

/**
 * Sub-step 3 (§2.3): the proof of tax residence goes to a TAX_RESIDENCE case (POST create case, tried 10
 * times, §9); re-entering for the same country reuses it.
 */
async function openResidenceProof(ctx: StepContext, asked: boolean): Promise<StepOutcome> {
  const answers = answersOf(ctx);
  const countryCode = taxResidenceCountryOf(asked, answers.taxResidenceCountryCode, ctx.journey.country);
  const existing = answers.residenceProof;
  const plan = taxResidenceCasePlan(existing, countryCode);
  if (plan !== 'reuse') {
    const body = {
      prospectId: ctx.ci.prospectId,
      type: 'TAX_RESIDENCE' as const,
      ...(plan === 'update' && existing ? { taskId: existing.taskId } : {}),
      taskData: { countryCode },
      attachments: [],
    };
    const taskId = await withRetries(() => ctx.deps.brokerage.createCase(ctx.jwt, body), ctx.deps.config.FILE_RETRY_DELAY_MS);
    answers.residenceProof = { countryCode, taskId, files: [] };
  }
  return { kind: 'subStep', subStep: 3 };
}

/** POST submit tax residence (§7), tried 10 times (§9): the uploaded proof on its case. */
async function submitResidence(ctx: StepContext, proof: ResidenceProof): Promise<void> {
  const body = {
    prospectId: ctx.ci.prospectId,
    type: 'TAX_RESIDENCE' as const,
    nnxTaskId: proof.taskId,
    taskData: { countryCode: proof.countryCode },
    attachments: proof.files.map((f) => ({ attachmentId: f.attachmentId })),
  };
  await withRetries(() => ctx.deps.brokerage.submitTaxResidence(ctx.jwt, body), ctx.deps.config.FILE_RETRY_DELAY_MS);
}

async function submitNumbers(ctx: StepContext, raw: Record<string, unknown>, form: TaxPost): Promise<StepOutcome> {
  const answers = answersOf(ctx);
  const home = ctx.journey.country;
  const foreign = foreignTaxCountries(answers.countries ?? [], home);
  const field = (name: string) => text.parse(raw[name]) ?? '';
  const rules = await rulesByCountry(ctx);
  const today = todayOf(ctx);
  const errors: NumberErrors = { tin: {}, startDate: {} };
  answers.numbers = {};
  for (const c of foreign) {
    const entry = { tin: field(`tin_${c}`), startDate: field(`startDate_${c}`) };
    answers.numbers[c] = entry;
    const problem = tinError(normaliseTin(c, entry.tin), rules.get(c));
    if (problem?.kind === 'required') errors.tin[c] = ctx.t('taxInformation.numbers.tinRequired');
    else if (problem) errors.tin[c] = problem.placeholder ? ctx.t('taxInformation.numbers.wrongFormat', { placeholder: problem.placeholder }) : ctx.t('taxInformation.numbers.wrongFormatPlain');
    if (!startDateValid(entry.startDate, today)) errors.startDate[c] = ctx.t('taxInformation.numbers.startDateError');
  }
  const residenceNeeded = taxResidenceRequired(ctx.deps.config.FLAG_TAX_RESIDENCE, home, addressCountryOf(ctx));
  if (residenceNeeded) {
    const residence = form.taxResidenceCountryCode;
    answers.taxResidenceCountryCode = residence !== undefined && isCountryCode(residence) ? residence : undefined;
    if (!answers.taxResidenceCountryCode) errors.taxResidence = ctx.t('taxInformation.numbers.taxResidenceError');
  }
  if (Object.keys(errors.tin).length || Object.keys(errors.startDate).length || errors.taxResidence) {
    return { kind: 'render', status: 400, view: await numbersView(ctx, { errors, rules }) };
  }
  if (ctx.deps.config.FLAG_TAX_RESIDENCE) return openResidenceProof(ctx, residenceNeeded);
  return submitTax(ctx, taxInfoSubmission(answers.countries ?? [], home, answers.numbers), { enhanced: form.enhanced === 'yes' });
}

async function submitProof(ctx: StepContext, form: TaxPost): Promise<StepOutcome> {
  const answers = answersOf(ctx);
  const proof = answers.residenceProof;
  if (!proof || !ctx.deps.config.FLAG_TAX_RESIDENCE) return { kind: 'subStep', subStep: 2 };
  switch (form.intent) {
    case 'upload': {
      const result = await uploadFile(ctx, { taskId: proof.taskId });
      if (!result.ok) return { kind: 'render', status: 400, view: proofView(ctx, proof, { upload: result.message }) };
      proof.files = [...proof.files, result.file];
      return { kind: 'subStep', subStep: 3 };
    }
    case 'remove':
      proof.files = removeFile(proof.files, form.attachmentId);
      return { kind: 'subStep', subStep: 3 };
    case 'finish': {
      if (proof.files.length === 0) return { kind: 'render', status: 400, view: proofView(ctx, proof, { page: ctx.t('taxInformation.proof.missing') }) };
      const body = taxInfoSubmission(answers.countries ?? [], ctx.journey.country, answers.numbers ?? {});
      return submitTax(ctx, body, { enhanced: form.enhanced === 'yes', afterSuccess: () => submitResidence(ctx, proof) });
    }
    default:
      return { kind: 'subStep', subStep: 3 };
  }
}

export const taxInformation: StepModule = {
  id: STEP,
  async view(ctx) {
    const answers = answersOf(ctx);
    if (answers.dialog === 'FATCA') return <Dialog {...fatcaProps(ctx)} />;
    if (answers.dialog === 'TAX_FAILURE') return <Dialog {...failureProps(ctx, answers)} />;
    // Sub-step 3 needs the flag and its case (a session from before the flag changed): the numbers instead.
    if (ctx.ci.subStep === 3 && !(ctx.deps.config.FLAG_TAX_RESIDENCE && answers.residenceProof)) ctx.ci.subStep = 2;
    switch (ctx.ci.subStep ?? 0) {
      case 1:
        return countriesView(ctx);
      case 2: {
        const view = await numbersView(ctx, { failureModal: answers.failureModal === true });
        // Shown once: a reload after closing it shows the form alone.
        delete answers.failureModal;
        return view;
      }
      case 3: {
        const proof = answers.residenceProof!;
        const query = removeQuery.safeParse(ctx.req.query);
        const file = query.success ? proof.files.find((f) => f.attachmentId === query.data.remove) : undefined;
        if (file) {
          return (
            <Dialog
              {...removeFileDialog(ctx.t, { id: 'remove-file-dialog', action: ctx.action, fields: { step: STEP, subStep: '3' }, file, keepHref: ctx.basePath })}
            />
          );
        }
        return proofView(ctx, proof);
      }
      default:
        return liabilityView(ctx);
    }
  },
  async submit(ctx, raw) {
    const parsed = postSchema.safeParse(raw);
    if (!parsed.success) return { kind: 'subStep', subStep: ctx.ci.subStep ?? 0 };
    const form = parsed.data;
    const answers = answersOf(ctx);
    const home = ctx.journey.country;
    const subStep = ctx.ci.subStep ?? 0;

    if (form.intent === 'attest') {
      // From the FATCA screen, or (with JavaScript) from the liability or countries form under the modal:
      // then only if what that form posts really is a FATCA case.
      const fromScreen = answers.dialog === 'FATCA';
      const fromForm =
        !answers.dialog &&
        form.subStep === String(subStep) &&
        attestsFatca({ subStep, liability: form.liability, countries: validCountries(form.countries) }, home, addressCountryOf(ctx));
      if (fromScreen || fromForm) return attest(ctx);
      return { kind: 'subStep', subStep };
    }
    // The dialog screens' other actions.
    if (form.intent === 'cancel' && answers.dialog === 'FATCA') {
      delete answers.dialog;
      return { kind: 'subStep', subStep };
    }
    if (form.intent === 'retry' && answers.dialog === 'TAX_FAILURE') {
      delete answers.dialog;
      const hasNumbers = foreignTaxCountries(answers.countries ?? [], home).length > 0;
      return { kind: 'subStep', subStep: answers.liability === 'other' && hasNumbers ? 2 : 0 };
    }
    // A post from a screen no longer shown (stale tab, double submit): show the current one again.
    if (answers.dialog || form.subStep !== String(subStep)) return { kind: 'subStep', subStep };

    if (subStep === 0) {
      if (!form.liability) return { kind: 'render', status: 400, view: liabilityView(ctx, ctx.t('taxInformation.liability.required')) };
      answers.liability = form.liability;
      switch (decideLiability(form.liability, home, addressCountryOf(ctx))) {
        case 'submitHomeOnly':
          answers.countries = [home];
          return submitTax(ctx, homeOnlySubmission());
        case 'fatcaDialog':
          answers.dialog = 'FATCA';
          return { kind: 'subStep', subStep: 0 };
        case 'chooseCountries':
          // Coming from home only, start from an empty choice rather than a preselected home country.
          if (answers.countries?.length === 1 && answers.countries[0] === home) answers.countries = [];
          // A fresh search each time the list is entered from the choice.
          answers.search = '';
          return { kind: 'subStep', subStep: 1 };
      }
    }

    if (subStep === 1) {
      answers.countries = validCountries(form.countries);
      answers.search = form.q?.trim() ?? '';
      if (form.intent === 'search') return { kind: 'subStep', subStep: 1 };
      switch (decideCountries(answers.countries, home)) {
        case 'chooseAtLeastOne':
          return { kind: 'render', status: 400, view: countriesView(ctx, ctx.t('taxInformation.countries.required')) };
        case 'fatcaDialog':
          answers.dialog = 'FATCA';
          return { kind: 'subStep', subStep: 1 };
        case 'submitHomeOnly':
          return submitTax(ctx, homeOnlySubmission());
        case 'enterNumbers':
          return { kind: 'subStep', subStep: 2 };
      }
    }

    if (subStep === 3) return submitProof(ctx, form);
    return submitNumbers(ctx, raw, form);
  },
  back(ctx) {
    const answers = answersOf(ctx);
    const subStep = ctx.ci.subStep ?? 0;
    // Back from a dialog closes it (the §2.3 cancel): the screen it opened over shows again.
    if (answers.dialog) {
      delete answers.dialog;
      return subStep;
    }
    return subStep > 0 ? subStep - 1 : null;
  },
};
