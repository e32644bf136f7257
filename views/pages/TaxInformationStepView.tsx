// Tax information step (customer-information.md §2.3 "Tax information", "Compliance dialogs"): the views of its
// screens (liability, countries, tax identification numbers, proof of tax residence) and the props of its two dialogs.
// Plain forms posting to the step route with their step and screen (ScreenFields). The FATCA and tax failure dialogs are
// modals with JavaScript (the liability and country islands open FATCA in place; the failure modal opens on load over
// the numbers form), screens of their own (`fatca`, `failure`) without.
import type { Translate } from '../../shared/i18n.ts';
import type { CountryOption } from '../../shared/countries.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import type { TaxLiability } from '../../shared/taxInformation.ts';
import { Island } from '../components/Island.tsx';
import { TaxLiabilityChoice } from '../components/TaxLiabilityChoice.tsx';
import { CountrySelect } from '../components/CountrySelect.tsx';
import { ScriptMarker } from '../components/ScriptMarker.tsx';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { ErrorSummary, Field } from '../components/ErrorSummary.tsx';
import { UploadScreen } from '../components/UploadScreen.tsx';

export const FATCA_DIALOG_ID = 'fatca-dialog';
export const TAX_FAILURE_DIALOG_ID = 'tax-failure-dialog';
/** The hidden field an enhanced (JavaScript) post carries: a refusal then answers with the failure modal. */
export const ENHANCED_FIELD = 'enhanced';

/**
 * FATCA (customer-information §2.3, §4.7): attest resets the answer to home only and submits it; cancel
 * closes the dialog; the link goes to the external manual form. As a modal both actions only close it
 * (the form's island posts the attest); as the `fatca` screen they post intent=attest / intent=cancel.
 */
export function fatcaDialog(
  t: Translate,
  options: { action: string; fields: ScreenFieldValues; countryName: string; countryCode: string; manualFormBase: string },
): DialogProps {
  const { action, fields } = options;
  return complianceDialogProps(t, 'FATCA', {
    id: FATCA_DIALOG_ID,
    primary: { action, fields: { ...fields, intent: 'attest' } },
    secondary: { action, fields: { ...fields, intent: 'cancel' } },
    manualFormBase: options.manualFormBase,
    // The market by name and by code: a language may inflect the name (Finnish "vain Suomessa").
    values: { country: options.countryName, countryCode: options.countryCode },
    closes: ['primary', 'secondary'],
  });
}

/**
 * The tax failure dialog (customer-information §4.5, §8): 'I want to try again' goes back to the numbers,
 * filled in; or the manual form. As a modal trying again just closes it: the numbers form under it still
 * holds the input.
 */
export function taxFailureDialog(
  t: Translate,
  options: { action: string; fields: ScreenFieldValues; problems: string[]; formUrl: string; openOnLoad?: boolean },
): DialogProps {
  return {
    id: TAX_FAILURE_DIALOG_ID,
    title: t('taxInformation.failure.title'),
    text: [t('taxInformation.failure.text'), ...options.problems],
    primary: { label: t('taxInformation.failure.retry'), action: options.action, fields: { ...options.fields, intent: 'retry' } },
    secondary: { label: t('taxInformation.failure.form'), href: options.formUrl },
    closes: ['primary'],
    ...(options.openOnLoad ? { openOnLoad: true } : {}),
  };
}

/** The `liability` screen: only home, the USA, or other countries. */
export function TaxLiabilityForm({
  t,
  action,
  fields,
  countryName,
  home,
  addressCountry,
  chosen,
  error,
  fatca,
}: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  countryName: string;
  home: string;
  addressCountry: string;
  chosen?: TaxLiability;
  error?: string;
  fatca: DialogProps;
}) {
  const options: { value: TaxLiability; label: string }[] = [
    { value: 'inOffice', label: t('taxInformation.liability.inOffice', { country: countryName, countryCode: home }) },
    { value: 'usa', label: t('taxInformation.liability.usa') },
    { value: 'other', label: t('taxInformation.liability.other') },
  ];
  return (
    <>
      <Island
        name="taxLiability"
        component={TaxLiabilityChoice}
        props={{
          action,
          fields,
          legend: t('taxInformation.liability.title'),
          options,
          chosen: chosen ?? null,
          error: error ?? null,
          continue: t('taxInformation.continue'),
          dialogId: fatca.id,
          home,
          addressCountry,
        }}
      />
      <ModalDialog {...fatca} />
    </>
  );
}

/** The `countries` screen: the tax countries, with a server search for pages without JavaScript. */
export function TaxCountriesForm({
  t,
  action,
  fields,
  options,
  chosen,
  search,
  error,
  fatca,
}: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  options: CountryOption[];
  chosen: string[];
  /** The search text of the no-JS server search. */
  search: string;
  error?: string;
  fatca: DialogProps;
}) {
  return (
    <>
      <Island
        name="countrySelect"
        component={CountrySelect}
        props={{
          action,
          fields: { ...fields },
          legend: t('taxInformation.countries.title'),
          options,
          chosen,
          labels: {
            search: t('taxInformation.countries.search'),
            noResults: t('taxInformation.countries.noneFound'),
            chosen: t('taxInformation.countries.chosen'),
            countries: t('taxInformation.countries.all'),
            continue: t('taxInformation.continue'),
          },
          error: error ?? null,
          submit: { name: 'intent', value: 'continue' },
          serverSearch: { name: 'q', query: search, button: { label: t('taxInformation.countries.searchButton'), name: 'intent', value: 'search' } },
          // customer-information §4.5: a US tax liability is FATCA whichever way it was declared.
          confirm: { dialogId: fatca.id, countries: ['US'], field: { name: 'intent', value: 'attest' } },
        }}
      />
      <ModalDialog {...fatca} />
    </>
  );
}

export interface TinRow {
  countryCode: string;
  countryName: string;
  tin: string;
  startDate: string;
  placeholder?: string;
  tinError?: string;
  startDateError?: string;
}

const tinId = (countryCode: string) => `tin-${countryCode}`;
const startDateId = (countryCode: string) => `start-date-${countryCode}`;
const TAX_RESIDENCE_ID = 'tax-residence';

/** The `numbers` screen: a tax identification number and start date per foreign country. */
export function TaxNumbersForm({
  t,
  action,
  fields,
  rows,
  today,
  taxResidence,
  failure,
}: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  rows: TinRow[];
  /** yyyy-mm-dd: the latest start date allowed. */
  today: string;
  /** With the tax-residence flag, when home and address country differ: the residence country select. */
  taxResidence?: { options: CountryOption[]; value: string; error?: string };
  /** With JavaScript, after a refused submit: the failure dialog, as a modal open over the form. */
  failure?: DialogProps;
}) {
  const errors = [
    ...rows.flatMap((r) => [
      ...(r.tinError ? [[tinId(r.countryCode), r.tinError] as const] : []),
      ...(r.startDateError ? [[startDateId(r.countryCode), r.startDateError] as const] : []),
    ]),
    ...(taxResidence?.error ? [[TAX_RESIDENCE_ID, taxResidence.error] as const] : []),
  ];
  return (
    <>
      <form method="post" action={action} noValidate>
        <ScreenFields fields={fields} />
        <ScriptMarker name={ENHANCED_FIELD} />
        <h1>{t('taxInformation.numbers.title')}</h1>
        <p>{t('taxInformation.numbers.intro')}</p>
        <ErrorSummary t={t} errors={errors} />
        {rows.map((r) => {
          const tin = tinId(r.countryCode);
          const hintId = `${tin}-hint`;
          return (
            <fieldset key={r.countryCode} className="card">
              <legend>
                <h2>{r.countryName}</h2>
              </legend>
              <Field
                id={tin}
                label={t('taxInformation.numbers.tin')}
                hint={
                  r.placeholder && (
                    <p id={hintId} className="field__hint">
                      {t('taxInformation.numbers.format', { placeholder: r.placeholder })}
                    </p>
                  )
                }
                error={r.tinError}
              >
                {(described) => (
                  <input
                    type="text"
                    id={tin}
                    name={`tin_${r.countryCode}`}
                    defaultValue={r.tin}
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={64}
                    {...described}
                    aria-describedby={[r.placeholder ? hintId : '', described['aria-describedby'] ?? ''].filter(Boolean).join(' ') || undefined}
                  />
                )}
              </Field>
              <Field id={startDateId(r.countryCode)} label={t('taxInformation.numbers.startDate')} error={r.startDateError}>
                {(described) => (
                  <input
                    type="date"
                    id={startDateId(r.countryCode)}
                    name={`startDate_${r.countryCode}`}
                    defaultValue={r.startDate}
                    max={today}
                    {...described}
                  />
                )}
              </Field>
            </fieldset>
          );
        })}
        {taxResidence && (
          <Field id={TAX_RESIDENCE_ID} label={t('taxInformation.numbers.taxResidence')} error={taxResidence.error}>
            {(described) => (
              <select id={TAX_RESIDENCE_ID} name="taxResidenceCountryCode" defaultValue={taxResidence.value} {...described}>
                <option value="">{t('taxInformation.numbers.taxResidenceChoose')}</option>
                {taxResidence.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <button type="submit" className="btn">
          {t('taxInformation.continue')}
        </button>
      </form>
      {failure && <ModalDialog {...failure} />}
    </>
  );
}

/** The `residenceProof` screen (customer-information §2.3, only with the tax-residence flag): proof of tax residence in one country. */
export function TaxResidenceProofForm(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  countryCode: string;
  countryName: string;
  files: readonly UploadedFileRef[];
  removeHref: (slot: string, attachmentId: string) => string;
  uploadError?: string;
  error?: string;
}) {
  const { t, countryName } = props;
  return (
    <UploadScreen
      t={t}
      id="tax-residence-proof"
      title={t('taxInformation.proof.title')}
      intro={<p>{t('taxInformation.proof.text', { country: countryName })}</p>}
      action={props.action}
      fields={props.fields}
      slots={[
        {
          key: props.countryCode,
          title: countryName,
          label: t('taxInformation.proof.upload', { country: countryName }),
          files: props.files,
          ...(props.uploadError ? { error: props.uploadError } : {}),
        },
      ]}
      complete={props.files.length > 0}
      missing={t('taxInformation.proof.missing')}
      continueLabel={t('taxInformation.continue')}
      removeHref={props.removeHref}
      {...(props.error ? { error: props.error } : {})}
      finishExtra={<ScriptMarker name={ENHANCED_FIELD} />}
    />
  );
}
