// Residency step screens (customer-information.md §2.3 "Residency", "Compliance dialogs"): the RESIDENCY
// dialog on entering (`dialog`), the address abroad (`address`), the three questions (`questions`), and
// the address documents (`documents`, the shared upload screen). Every form is a plain post (validated on
// the server) carrying its step and screen; the dialog is a modal only with JavaScript (the residencyDialog island,
// views/components/ResidencyAddress.tsx, which also holds the address form).
import type { ReactNode } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { UploadedFileRef } from '../../shared/citizenship.ts';
import { residencyQuestions, RESIDENCY_LIMITS, type ResidencyQuestion } from '../../shared/residency.ts';
import { Island } from '../components/Island.tsx';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import {
  AddressForm,
  ResidencyGate,
  type AddressFormData,
  type AddressTexts,
  type ResidencyGateProps,
  type ScreenForm,
} from '../components/ResidencyAddress.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { ErrorSummary, Field } from '../components/ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { UploadScreen, type UploadScreenProps } from '../components/UploadScreen.tsx';

export const RESIDENCY_DIALOG_ID = 'residency-dialog';

export type { ScreenForm } from '../components/ResidencyAddress.tsx';

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

export interface AddressFormProps extends Omit<AddressFormData, 'texts' | 'limits'> {
  t: Translate;
}

const fieldId = (field: string) => `residency-${field}`;

/** The address form's texts. */
function addressTexts(t: Translate): AddressTexts {
  return {
    title: t('residency.address.title'),
    text: t('residency.address.text'),
    country: t('residency.address.country'),
    countryChoose: t('residency.address.countryChoose'),
    address: t('residency.address.address'),
    zipCode: t('residency.address.zipCode'),
    city: t('residency.address.city'),
    continue: t('residency.continue'),
    errorSummary: t('form.error.summary'),
  };
}

export function ResidencyAddressForm({ t, ...form }: AddressFormProps) {
  return <AddressForm texts={addressTexts(t)} limits={RESIDENCY_LIMITS} {...form} />;
}

/**
 * The `dialog` screen: the dialog is the screen; the address form waits, hidden, behind it. With
 * JavaScript the island swaps them and opens the same dialog as a modal over the address form.
 */
export function ResidencyDialogGate(props: { t: Translate; dialog: ScreenForm; market: CountryCode; manualFormBase: string; address: AddressFormProps }) {
  const { t, dialog: form, market, manualFormBase } = props;
  const modal = residencyDialog(t, { id: RESIDENCY_DIALOG_ID, form, market, manualFormBase });
  const { t: _, ...address } = props.address;
  const gate: ResidencyGateProps = {
    screen: residencyDialog(t, { id: `${RESIDENCY_DIALOG_ID}-screen-dialog`, form, market, manualFormBase }),
    dialogId: modal.id,
    primary: modal.primary,
    address: { ...address, texts: addressTexts(t), limits: RESIDENCY_LIMITS },
  };
  return (
    <>
      <ModalDialog {...modal} />
      <Island name="residencyDialog" component={ResidencyGate} props={gate} />
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
