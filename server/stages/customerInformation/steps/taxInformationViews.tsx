// The tax information step's views and what they read (customer-information.md §4.5, §4.7, §5 "Tax
// identification numbers"): its screens' names, the answers it keeps, the rules by country, and one view per
// screen. The screens and their submits are taxInformationStep.tsx.
import type { StepAnswers } from '../../../journey.ts';
import { localeOf } from '../../../pages.ts';
import { removeHref, type UploadScreenErrors, type UploadSlot } from '../fileUploadScreen.tsx';
import { countryName, countryOptions } from '../../../../shared/countries.ts';
import { marketTimeZones } from '../../../../shared/markets.ts';
import { wallClockIn } from '../../../../shared/zonedTime.ts';
import { foreignTaxCountries, invalidFieldOf, taxInfoSubmission, taxResidenceRequired, type TinRule } from '../../../../shared/taxInformation.ts';
import {
  fatcaDialog,
  taxFailureDialog,
  TaxCountriesForm,
  TaxLiabilityForm,
  TaxNumbersForm,
  TaxResidenceProofForm,
  type TinRow,
} from '../../../../views/pages/TaxInformationStepView.tsx';
import type { StepContext } from '../stepModule.ts';

export type TaxScreen = 'liability' | 'countries' | 'numbers' | 'residenceProof' | 'fatca' | 'failure';
export type Ctx = StepContext<TaxScreen>;

type TaxAnswers = NonNullable<StepAnswers['taxInformation']>;
export type ResidenceProof = NonNullable<TaxAnswers['residenceProof']>;

export function answersOf(ctx: Ctx): TaxAnswers {
  ctx.ci.answers ??= {};
  return (ctx.ci.answers.taxInformation ??= {});
}

/** The country the person lives in: the residency step's address abroad, otherwise home. */
export function addressCountryOf(ctx: Ctx): string {
  return ctx.ci.answers?.residency?.addressCountry ?? ctx.journey.country;
}

/** Today in the market's time zone (yyyy-mm-dd): a start date of today is never "in the future" at midnight. */
export function todayOf(ctx: Ctx): string {
  return wallClockIn(new Date(ctx.deps.now()), marketTimeZones[ctx.journey.country]).date;
}

export const nameOf = (ctx: Ctx, code: string) => countryName(code, localeOf(ctx.req, ctx.deps));

export async function rulesByCountry(ctx: Ctx): Promise<Map<string, TinRule>> {
  const rules = await ctx.brokerage.taxValidationRules();
  return new Map(rules.map((r) => [r.countryCode, r]));
}

// --- views ---------------------------------------------------------------------------------------
// Each view names its screen's fields: a view can answer a post of another screen (the numbers with the
// failure modal answer the proof's Continue).

export function fatcaProps(ctx: Ctx) {
  return fatcaDialog(ctx.t, {
    action: ctx.action,
    fields: ctx.fields('fatca'),
    countryName: nameOf(ctx, ctx.journey.country),
    countryCode: ctx.journey.country,
    manualFormBase: ctx.deps.config.MANUAL_SUPPORT_URL,
  });
}

/** The server's invalid field names (customer-information §4.5), read back as "country: field" lines. */
export function failureProps(ctx: Ctx, openOnLoad = false) {
  const answers = answersOf(ctx);
  const sent = taxInfoSubmission(answers.countries ?? [], ctx.journey.country, answers.numbers ?? {}).taxInformationListOutsideOfTld;
  const problems = [
    ...new Set(
      (answers.invalidFields ?? []).map((name) => {
        const f = invalidFieldOf(name, sent);
        return f.countryCode
          ? ctx.t('taxInformation.failure.field', { country: nameOf(ctx, f.countryCode), field: f.field })
          : ctx.t('taxInformation.failure.other');
      }),
    ),
  ];
  return taxFailureDialog(ctx.t, { action: ctx.action, fields: ctx.fields('failure'), problems, formUrl: ctx.deps.config.MANUAL_SUPPORT_URL, openOnLoad });
}

export function liabilityView(ctx: Ctx, error?: string) {
  const answers = answersOf(ctx);
  return (
    <TaxLiabilityForm
      t={ctx.t}
      action={ctx.action}
      fields={ctx.fields('liability')}
      countryName={nameOf(ctx, ctx.journey.country)}
      home={ctx.journey.country}
      addressCountry={addressCountryOf(ctx)}
      chosen={answers.liability}
      error={error}
      fatca={fatcaProps(ctx)}
    />
  );
}

export function countriesView(ctx: Ctx, error?: string) {
  const answers = answersOf(ctx);
  return (
    <TaxCountriesForm
      t={ctx.t}
      action={ctx.action}
      fields={ctx.fields('countries')}
      options={countryOptions(localeOf(ctx.req, ctx.deps))}
      chosen={answers.countries ?? []}
      search={answers.search ?? ''}
      error={error}
      fatca={fatcaProps(ctx)}
    />
  );
}

export interface NumberErrors {
  tin: Record<string, string>;
  startDate: Record<string, string>;
  taxResidence?: string;
}

export async function numbersView(ctx: Ctx, options: { errors?: NumberErrors; rules?: Map<string, TinRule>; failureModal?: boolean } = {}) {
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
      fields={ctx.fields('numbers')}
      rows={rows}
      today={todayOf(ctx)}
      taxResidence={residence}
      {...(options.failureModal ? { failure: failureProps(ctx, true) } : {})}
    />
  );
}

/** The proof's one upload slot: its case's country, required. */
export function proofSlots(proof: ResidenceProof | undefined): UploadSlot[] {
  return proof ? [{ key: proof.countryCode, taskId: proof.taskId, files: proof.files, required: true }] : [];
}

export function proofView(ctx: Ctx, errors: UploadScreenErrors) {
  const proof = answersOf(ctx).residenceProof;
  // The screen is available only with its case (residenceProof.available).
  if (!proof) throw new Error('TAX_INFO_STEP residenceProof shown without its case');
  const fields = ctx.fields('residenceProof');
  return (
    <TaxResidenceProofForm
      t={ctx.t}
      action={ctx.action}
      fields={fields}
      countryCode={proof.countryCode}
      countryName={nameOf(ctx, proof.countryCode)}
      files={proof.files}
      removeHref={removeHref(ctx)}
      {...(errors.upload ? { uploadError: errors.upload } : {})}
      {...(errors.page ? { error: errors.page } : {})}
    />
  );
}
