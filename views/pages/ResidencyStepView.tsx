// Residency step screens (customer-information.md §2.3 "Residency", "Compliance dialogs"): the RESIDENCY
// dialog on entering (`dialog`), the address abroad (`address`), the three questions (`questions`), and
// the address documents (`documents`, the shared upload screen). Every form is a plain post (validated on
// the server) carrying its step and screen; the dialog is a modal only with JavaScript.
import type { ReactNode } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { CountryOption } from '../../shared/countries.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import { residencyQuestions, RESIDENCY_LIMITS, type AddressField, type ResidencyQuestion } from '../../shared/residency.ts';
import { Island } from '../components/Island.tsx';
import type { ResidencyDialogProps } from '../../client/islands/residencyDialogIsland.ts';
import { Dialog, ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { ErrorSummary, Field } from '../components/ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { UploadScreen, type UploadScreenProps } from '../components/UploadScreen.tsx';

export const RESIDENCY_DIALOG_ID = 'residency-dialog';
const SCREEN_ID = 'residency-dialog-screen';
const ADDRESS_ID = 'residency-address-step';
const ADDRESS_TITLE_ID = 'residency-address-title';

/** A form of the step: where it posts and its hidden step and screen fields. */
export interface ScreenForm {
  action: string;
  fields: ScreenFieldValues;
}

/**
 * customer-information §2.3: the person lives outside the market's country. Continue closes the dialog
 * (without JavaScript it posts and the address form follows); the link goes to the external manual form.
 */
export function residencyDialog(t: Translate, options: { id: string; form: ScreenForm; market: CountryCode; manualFormBase: string }): DialogProps {
  return complianceDialogProps(t, 'RESIDENCY', {
    id: options.id,
    primary: { action: options.form.action, fields: { ...options.form.fields } },
    // Nothing to cancel here (the step is there because the person lives abroad): the form is the other way.
    secondary: 'manualForm',
    manualFormBase: options.manualFormBase,
    values: { country: options.market },
    closes: ['primary'],
  });
}

export interface AddressFormProps extends ScreenForm {
  t: Translate;
  options: CountryOption[];
  values: Partial<Record<AddressField, string>>;
  errors?: Partial<Record<AddressField, string>>;
}

const fieldId = (field: string) => `residency-${field}`;

export function ResidencyAddressForm({ t, action, fields, options, values, errors = {} }: AddressFormProps) {
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
  const listed = (['addressCountry', 'address', 'zipCode', 'city'] as const).filter((f) => errors[f]).map((f) => [fieldId(f), errors[f]!] as const);
  return (
    <section aria-labelledby={ADDRESS_TITLE_ID}>
      <h1 id={ADDRESS_TITLE_ID} tabIndex={-1}>
        {t('residency.address.title')}
      </h1>
      <p>{t('residency.address.text')}</p>
      <ErrorSummary t={t} errors={listed} />
      <form method="post" action={action} noValidate>
        <ScreenFields fields={fields} />
        <Field id={fieldId('addressCountry')} label={t('residency.address.country')} error={errors.addressCountry}>
          {(described) => (
            <select
              id={fieldId('addressCountry')}
              name="addressCountry"
              defaultValue={values.addressCountry ?? ''}
              autoComplete="country"
              required
              {...described}
            >
              <option value="">{t('residency.address.countryChoose')}</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {/* One line for the street: address-line1 (street-address is for a multi-line control, WHATWG HTML autofill). */}
        {text('address', 'address-line1')}
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
 * The `dialog` screen: the dialog is the screen; the address form waits, hidden, behind it. With
 * JavaScript the island swaps them and opens the same dialog as a modal over the address form.
 */
export function ResidencyDialogGate(props: { t: Translate; dialog: ScreenForm; market: CountryCode; manualFormBase: string; address: AddressFormProps }) {
  const { t, dialog: form, market, manualFormBase } = props;
  const modal = residencyDialog(t, { id: RESIDENCY_DIALOG_ID, form, market, manualFormBase });
  return (
    <>
      <div id={SCREEN_ID}>
        <Dialog {...residencyDialog(t, { id: `${RESIDENCY_DIALOG_ID}-screen-dialog`, form, market, manualFormBase })} />
      </div>
      <div id={ADDRESS_ID} hidden>
        <ResidencyAddressForm {...props.address} />
      </div>
      <ModalDialog {...modal} />
      <Island
        name="residencyDialog"
        props={
          { dialogId: modal.id, primary: modal.primary, screenId: SCREEN_ID, contentId: ADDRESS_ID, focusId: ADDRESS_TITLE_ID } satisfies ResidencyDialogProps
        }
      />
    </>
  );
}

export function ResidencyQuestionsForm(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  values: Partial<Record<ResidencyQuestion, string>>;
  errors?: Partial<Record<ResidencyQuestion, string>>;
}) {
  const { t, action, values, errors = {} } = props;
  const listed = residencyQuestions.filter((q) => errors[q]).map((q) => [fieldId(q), errors[q]!] as const);
  return (
    <section aria-labelledby="residency-questions-title">
      <h1 id="residency-questions-title">{t('residency.questions.title')}</h1>
      <p>{t('residency.questions.text')}</p>
      <ErrorSummary t={t} errors={listed} />
      <form method="post" action={action} noValidate>
        <ScreenFields fields={props.fields} />
        {residencyQuestions.map((q) => (
          <Field key={q} id={fieldId(q)} label={t(`residency.question.${q}`)} error={errors[q]}>
            {(described) => (
              <textarea id={fieldId(q)} name={q} rows={4} defaultValue={values[q] ?? ''} maxLength={RESIDENCY_LIMITS.answer} required {...described} />
            )}
          </Field>
        ))}
        <button type="submit" className="btn">
          {t('residency.continue')}
        </button>
      </form>
    </section>
  );
}

/**
 * The `documents` screen: one place for the address documents. Continue stays enabled (pressing it
 * without a document says what is missing, customer-information §5 "Residency").
 */
export function ResidencyDocuments(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  slot: string;
  files: readonly UploadedFileRef[];
  removeHref: UploadScreenProps['removeHref'];
  uploadError?: string;
  error?: string;
}) {
  const { t } = props;
  const intro: ReactNode = <p>{t('residency.documents.text')}</p>;
  return (
    <UploadScreen
      t={t}
      id="residency-documents"
      title={t('residency.documents.title')}
      intro={intro}
      action={props.action}
      fields={props.fields}
      slots={[{ key: props.slot, label: t('residency.documents.upload'), files: props.files, ...(props.uploadError ? { error: props.uploadError } : {}) }]}
      complete
      continueLabel={t('residency.continue')}
      removeHref={props.removeHref}
      {...(props.error ? { error: props.error } : {})}
    />
  );
}
