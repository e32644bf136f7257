// Tax information step (customer-information.md §2.3 "Tax information", "Compliance dialogs"): liability
// choice, country selection, tax identification numbers, proof of tax residence. Plain forms posting to the
// step route; errors sit next to their field (aria-describedby) and the input is kept. The FATCA and tax
// failure dialogs: modals with JavaScript (the liability and country islands open FATCA in place; the
// failure modal opens on load over the numbers form), their own screens without.
import type { Translate } from '../../shared/i18n.ts';
import type { CountryOption } from '../../shared/countries.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import type { TaxLiability } from '../../shared/taxInformation.ts';
import { Island } from '../components/Island.tsx';
import TaxLiabilityIsland from '../../client/islands/taxLiability.tsx';
import CountrySelect from '../../client/islands/countrySelect.tsx';
import ScriptMarker from '../../client/islands/scriptMarker.tsx';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { FileUpload } from '../components/FileUpload.tsx';
import { CsrfField } from '../components/CsrfField.tsx';

const STEP = 'TAX_INFO_STEP';

function StepFields({ subStep }: { subStep: number }) {
  return (
    <>
      {/* The step and sub-step a post answers, so a stale tab cannot answer another screen. */}
      <input type="hidden" name="step" value={STEP} />
      <input type="hidden" name="subStep" value={String(subStep)} />
    </>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="field__error">
      {message}
    </p>
  );
}

export const FATCA_DIALOG_ID = 'fatca-dialog';
export const TAX_FAILURE_DIALOG_ID = 'tax-failure-dialog';
/** The hidden field an enhanced (JavaScript) post carries: a refusal then answers with the failure modal. */
export const ENHANCED_FIELD = 'enhanced';

/**
 * FATCA (§2.3, §4.7): attest resets the answer to home only and submits it; cancel closes the dialog; the
 * link goes to the external manual form. As a modal both actions only close it (the form's island posts
 * the attest); as a screen they post intent=attest / intent=cancel.
 */
export function fatcaDialog(t: Translate, options: { action: string; countryName: string; manualFormBase: string }): DialogProps {
  return complianceDialogProps(t, 'FATCA', {
    id: FATCA_DIALOG_ID,
    primary: { action: options.action, fields: { step: STEP, intent: 'attest' } },
    secondary: { action: options.action, fields: { step: STEP, intent: 'cancel' } },
    manualFormBase: options.manualFormBase,
    values: { country: options.countryName },
    closes: ['primary', 'secondary'],
  });
}

/** The tax failure dialog (§4.5, §8): 'I want to try again' goes back to the numbers, filled in; or the manual form. */
export function taxFailureDialog(t: Translate, options: { action: string; problems: string[]; formUrl: string; openOnLoad?: boolean }): DialogProps {
  return {
    id: TAX_FAILURE_DIALOG_ID,
    title: t('taxInformation.failure.title'),
    text: [t('taxInformation.failure.text'), ...options.problems],
    primary: { label: t('taxInformation.failure.retry'), action: options.action, fields: { step: STEP, intent: 'retry' } },
    secondary: { label: t('taxInformation.failure.form'), href: options.formUrl },
    // As a modal, trying again just closes it: the numbers form under it still holds the input.
    closes: ['primary'],
    ...(options.openOnLoad ? { openOnLoad: true } : {}),
  };
}

export function TaxLiabilityForm({
  t,
  action,
  countryName,
  home,
  addressCountry,
  chosen,
  error,
  fatca,
}: {
  t: Translate;
  action: string;
  countryName: string;
  home: string;
  addressCountry: string;
  chosen?: TaxLiability;
  error?: string;
  fatca: DialogProps;
}) {
  const options: { value: TaxLiability; label: string }[] = [
    { value: 'inOffice', label: t('taxInformation.liability.inOffice', { country: countryName }) },
    { value: 'usa', label: t('taxInformation.liability.usa') },
    { value: 'other', label: t('taxInformation.liability.other') },
  ];
  return (
    <>
      <Island
        name="taxLiability"
        component={TaxLiabilityIsland}
        props={{
          action,
          dialogId: fatca.id,
          home,
          addressCountry,
          chosen: chosen ?? null,
          legend: t('taxInformation.liability.title'),
          options,
          continueLabel: t('taxInformation.continue'),
          error: error ?? null,
        }}
      />
      <ModalDialog {...fatca} />
    </>
  );
}

export function TaxCountriesForm({
  t,
  action,
  options,
  chosen,
  search,
  error,
  fatca,
}: {
  t: Translate;
  action: string;
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
          fields: { step: STEP, subStep: '1' },
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
          // §4.5: a US tax liability is FATCA whichever way it was declared.
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

export function TaxNumbersForm({
  t,
  action,
  rows,
  today,
  taxResidence,
  failure,
}: {
  t: Translate;
  action: string;
  rows: TinRow[];
  /** yyyy-mm-dd: the latest start date allowed. */
  today: string;
  /** With the tax-residence flag, when home and address country differ: the residence country select. */
  taxResidence?: { options: CountryOption[]; value: string; error?: string };
  /** With JavaScript, after a refused submit: the failure dialog, as a modal open over the form. */
  failure?: DialogProps;
}) {
  return (
    <>
      <form method="post" action={action} noValidate>
        <CsrfField />
        <StepFields subStep={2} />
        <Island name="scriptMarker" component={ScriptMarker} props={{ name: ENHANCED_FIELD }} />
        <h1>{t('taxInformation.numbers.title')}</h1>
        <p>{t('taxInformation.numbers.intro')}</p>
        {rows.map((r) => {
          const tinId = `tin-${r.countryCode}`;
          const dateId = `start-date-${r.countryCode}`;
          const tinDescribedBy = [r.placeholder ? `${tinId}-hint` : '', r.tinError ? `${tinId}-error` : ''].filter(Boolean).join(' ') || undefined;
          return (
            <fieldset key={r.countryCode} className="card">
              <legend>
                <h2>{r.countryName}</h2>
              </legend>
              <div className="field">
                <label htmlFor={tinId}>{t('taxInformation.numbers.tin')}</label>
                {r.placeholder && (
                  <p id={`${tinId}-hint`} className="field__hint">
                    {t('taxInformation.numbers.format', { placeholder: r.placeholder })}
                  </p>
                )}
                <input
                  type="text"
                  id={tinId}
                  name={`tin_${r.countryCode}`}
                  defaultValue={r.tin}
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={64}
                  aria-invalid={r.tinError ? true : undefined}
                  aria-describedby={tinDescribedBy}
                />
                <FieldError id={`${tinId}-error`} message={r.tinError} />
              </div>
              <div className="field">
                <label htmlFor={dateId}>{t('taxInformation.numbers.startDate')}</label>
                <input
                  type="date"
                  id={dateId}
                  name={`startDate_${r.countryCode}`}
                  defaultValue={r.startDate}
                  max={today}
                  aria-invalid={r.startDateError ? true : undefined}
                  aria-describedby={r.startDateError ? `${dateId}-error` : undefined}
                />
                <FieldError id={`${dateId}-error`} message={r.startDateError} />
              </div>
            </fieldset>
          );
        })}
        {taxResidence && (
          <div className="field">
            <label htmlFor="tax-residence">{t('taxInformation.numbers.taxResidence')}</label>
            <select
              id="tax-residence"
              name="taxResidenceCountryCode"
              defaultValue={taxResidence.value}
              aria-invalid={taxResidence.error ? true : undefined}
              aria-describedby={taxResidence.error ? 'tax-residence-error' : undefined}
            >
              <option value="">{t('taxInformation.numbers.taxResidenceChoose')}</option>
              {taxResidence.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <FieldError id="tax-residence-error" message={taxResidence.error} />
          </div>
        )}
        <button type="submit" className="btn">
          {t('taxInformation.continue')}
        </button>
      </form>
      {failure && <ModalDialog {...failure} />}
    </>
  );
}

/** Sub-step 3 (§2.3, only with the tax-residence flag): proof of tax residence in one country. */
export function TaxResidenceProofForm(props: {
  t: Translate;
  action: string;
  countryCode: string;
  countryName: string;
  files: readonly UploadedFileRef[];
  removeHref: (attachmentId: string) => string;
  uploadError?: string;
  error?: string;
}) {
  const { t, action, countryName } = props;
  const complete = props.files.length > 0;
  const uploadId = `tax-residence-proof-${props.countryCode}`;
  return (
    <section aria-labelledby="tax-residence-proof-title">
      <h1 id="tax-residence-proof-title">{t('taxInformation.proof.title')}</h1>
      <p>{t('taxInformation.proof.text', { country: countryName })}</p>
      {props.error && (
        <p className="error-summary" role="alert">
          {props.error}
        </p>
      )}
      <section className="card proof-card" aria-labelledby={`${uploadId}-title`}>
        <h2 id={`${uploadId}-title`}>{countryName}</h2>
        <FileUpload
          t={t}
          id={uploadId}
          label={t('taxInformation.proof.upload', { country: countryName })}
          action={action}
          fields={{ step: STEP, subStep: '3' }}
          files={props.files}
          removeHref={props.removeHref}
          error={props.uploadError ?? null}
        />
      </section>
      <form method="post" action={action}>
        <CsrfField />
        <StepFields subStep={3} />
        <input type="hidden" name="intent" value="finish" />
        <Island name="scriptMarker" component={ScriptMarker} props={{ name: ENHANCED_FIELD }} />
        {!complete && (
          <p id="tax-residence-proof-missing" className="field__hint">
            {t('taxInformation.proof.missing')}
          </p>
        )}
        <button type="submit" className="btn" disabled={!complete} aria-describedby={complete ? undefined : 'tax-residence-proof-missing'}>
          {t('taxInformation.continue')}
        </button>
      </form>
    </section>
  );
}
