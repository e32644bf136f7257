// Residency step screens (customer-information.md §2.3 "Residency", "Compliance dialogs"): the RESIDENCY
// dialog on entering, the address abroad, the three questions, and the address documents. Every form is a
// plain post (validated on the server); the dialog is a modal only with JavaScript.
import type { ReactNode } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { CountryOption } from '../../shared/countries.ts';
import type { CountryCode } from '../../shared/contracts/brokerage.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import { residencyQuestions, RESIDENCY_LIMITS, type AddressField, type ResidencyQuestion } from '../../shared/residency.ts';
import { Island } from '../components/Island.tsx';
import ResidencyDialog from '../../client/islands/residencyDialog.tsx';
import { Dialog, type DialogProps } from '../components/Dialog.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { FileUpload } from '../components/FileUpload.tsx';
import { CsrfField } from '../components/CsrfField.tsx';

const STEP = 'RESIDENCY_STEP';
export const RESIDENCY_DIALOG_ID = 'residency-dialog';
const SCREEN_ID = 'residency-dialog-screen';
const ADDRESS_ID = 'residency-address-step';
const ADDRESS_TITLE_ID = 'residency-address-title';

/**
 * §2.3: the person lives outside the market's country. Continue closes the dialog (without JavaScript it
 * posts and the address form follows); the link goes to the external manual form.
 */
export function residencyDialog(t: Translate, options: { id: string; action: string; market: CountryCode; manualFormBase: string }): DialogProps {
  return complianceDialogProps(t, 'RESIDENCY', {
    id: options.id,
    primary: { action: options.action, fields: { step: STEP, intent: 'dialogContinue' } },
    // Nothing to cancel here (the step is there because the person lives abroad): the form is the other way.
    secondary: 'manualForm',
    manualFormBase: options.manualFormBase,
    values: { country: options.market },
    closes: ['primary'],
  });
}

/** A list of the form's errors on top, each linking to its field (read first by screen readers). */
function ErrorSummary({ t, errors }: { t: Translate; errors: [id: string, message: string][] }) {
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" role="alert">
      <p>{t('residency.error.summary')}</p>
      <ul>
        {errors.map(([id, message]) => (
          <li key={id}>
            <a href={`#${id}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Field(props: { id: string; label: string; error?: string; children: (described: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const errorId = `${props.id}-error`;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.error && (
        <p id={errorId} className="field__error">
          {props.error}
        </p>
      )}
      {props.children(props.error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
    </div>
  );
}

export interface AddressFormProps {
  t: Translate;
  action: string;
  options: CountryOption[];
  values: Partial<Record<AddressField, string>>;
  errors?: Partial<Record<AddressField, string>>;
}

const fieldId = (field: string) => `residency-${field}`;

export function ResidencyAddressForm({ t, action, options, values, errors = {} }: AddressFormProps) {
  const text = (field: 'address' | 'zipCode' | 'city', autoComplete: string) => (
    <Field id={fieldId(field)} label={t(`residency.address.${field}`)} error={errors[field]}>
      {(described) => (
        <input
          type="text"
          id={fieldId(field)}
          name={field}
          defaultValue={values[field] ?? ''}
          autoComplete={autoComplete}
          maxLength={RESIDENCY_LIMITS[field]}
          required
          {...described}
        />
      )}
    </Field>
  );
  const listed = (['addressCountry', 'address', 'zipCode', 'city'] as const).filter((f) => errors[f]).map((f): [string, string] => [fieldId(f), errors[f]!]);
  return (
    <section aria-labelledby={ADDRESS_TITLE_ID}>
      <h1 id={ADDRESS_TITLE_ID} tabIndex={-1}>
        {t('residency.address.title')}
      </h1>
      <p>{t('residency.address.text')}</p>
      <ErrorSummary t={t} errors={listed} />
      <form method="post" action={action} noValidate>
        <CsrfField />
        <input type="hidden" name="step" value={STEP} />
        <input type="hidden" name="intent" value="address" />
        <Field id={fieldId('addressCountry')} label={t('residency.address.country')} error={errors.addressCountry}>
          {(described) => (
            <select id={fieldId('addressCountry')} name="addressCountry" defaultValue={values.addressCountry ?? ''} autoComplete="country" required {...described}>
              <option value="">{t('residency.address.countryChoose')}</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('address', 'street-address')}
        {text('zipCode', 'postal-code')}
        {text('city', 'address-level2')}
        <button type="submit" className="btn">
          {t('residency.continue')}
        </button>
      </form>
    </section>
  );
}

/**
 * First visit of the step: the dialog is the screen; the address form waits, hidden, behind it. With
 * JavaScript the island swaps them and opens the same dialog as a modal.
 */
export function ResidencyDialogGate(props: { t: Translate; action: string; market: CountryCode; manualFormBase: string; address: AddressFormProps }) {
  const { t, action, market, manualFormBase } = props;
  return (
    <>
      <div id={SCREEN_ID}>
        <Dialog {...residencyDialog(t, { id: `${RESIDENCY_DIALOG_ID}-screen-dialog`, action, market, manualFormBase })} />
      </div>
      <div id={ADDRESS_ID} hidden>
        <ResidencyAddressForm {...props.address} />
      </div>
      <Island
        name="residencyDialog"
        component={ResidencyDialog}
        props={{
          dialog: residencyDialog(t, { id: RESIDENCY_DIALOG_ID, action, market, manualFormBase }),
          screenId: SCREEN_ID,
          contentId: ADDRESS_ID,
          focusId: ADDRESS_TITLE_ID,
        }}
      />
    </>
  );
}

export function ResidencyQuestionsForm(props: { t: Translate; action: string; values: Partial<Record<ResidencyQuestion, string>>; errors?: Partial<Record<ResidencyQuestion, string>> }) {
  const { t, action, values, errors = {} } = props;
  const listed = residencyQuestions.filter((q) => errors[q]).map((q): [string, string] => [fieldId(q), errors[q]!]);
  return (
    <section aria-labelledby="residency-questions-title">
      <h1 id="residency-questions-title">{t('residency.questions.title')}</h1>
      <p>{t('residency.questions.text')}</p>
      <ErrorSummary t={t} errors={listed} />
      <form method="post" action={action} noValidate>
        <CsrfField />
        <input type="hidden" name="step" value={STEP} />
        <input type="hidden" name="intent" value="questions" />
        {residencyQuestions.map((q) => (
          <Field key={q} id={fieldId(q)} label={t(`residency.question.${q}`)} error={errors[q]}>
            {(described) => <textarea id={fieldId(q)} name={q} rows={4} defaultValue={values[q] ?? ''} maxLength={RESIDENCY_LIMITS.answer} required {...described} />}
          </Field>
        ))}
        <button type="submit" className="btn">
          {t('residency.continue')}
        </button>
      </form>
    </section>
  );
}

export function ResidencyDocumentsStep(props: {
  t: Translate;
  action: string;
  files: readonly UploadedFileRef[];
  removeHref: (attachmentId: string) => string;
  uploadError?: string;
  error?: string;
}) {
  const { t, action } = props;
  return (
    <section aria-labelledby="residency-documents-title">
      <h1 id="residency-documents-title">{t('residency.documents.title')}</h1>
      <p>{t('residency.documents.text')}</p>
      {props.error && (
        <p className="error-summary" role="alert">
          {props.error}
        </p>
      )}
      <FileUpload
        t={t}
        id="residency-documents"
        label={t('residency.documents.upload')}
        action={action}
        fields={{ step: STEP }}
        files={props.files}
        removeHref={props.removeHref}
        error={props.uploadError ?? null}
      />
      <form method="post" action={action}>
        <CsrfField />
        <input type="hidden" name="step" value={STEP} />
        <input type="hidden" name="intent" value="finish" />
        <button type="submit" className="btn">
          {t('residency.continue')}
        </button>
      </form>
    </section>
  );
}
