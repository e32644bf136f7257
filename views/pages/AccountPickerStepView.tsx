// Account picker view (customer-information.md §2.3, §4.2): the picker form (the accountPicker island,
// views/components/AccountPickerForm.tsx: one card per account, the Danish campaign question, a 'Read more' drawer per
// account) and the exclusive accounts' confirmation dialogs (a modal with JS, the `exclusive` screen without).
import type { Translate } from '../../shared/i18n.ts';
import type { AccountTypeEntry } from '../../shared/accountPicker.ts';
import { accountCode } from '../../shared/accountPicker.ts';
import type { AccountTypeWithCountry, AgreementDocument } from '../../shared/contracts/brokerageContract.ts';
import { Island } from '../components/Island.tsx';
import { AccountPicker, exclusiveDialogId, type AccountPickerProps } from '../components/AccountPickerForm.tsx';
import { Dialog, ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import type { ScreenFieldValues } from '../components/ScreenForm.tsx';

export interface PickerCard extends AccountTypeEntry {
  /** null: the documents could not be fetched. */
  documents: AgreementDocument[] | null;
}

export interface AccountPickerViewProps {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  /** The hidden fields of the exclusive accounts' dialog (the no-JS screen's; the modal only closes). */
  dialogFields: ScreenFieldValues;
  cards: PickerCard[];
  error: string | null;
  campaign: boolean;
  dskExisting?: 'yes' | 'no';
  dskLocked: boolean;
  esaDeclined: boolean;
  depositGuaranteeUrl: string;
}

/** customer-information §4.2/§5 confirmation dialog of an exclusive account (DSK_DK, ESA_FI). */
export function exclusiveDialog(
  t: Translate,
  account: AccountTypeWithCountry,
  form: { action: string; fields: ScreenFieldValues },
  posted: readonly string[],
  mode: 'modal' | 'screen',
  warning?: string,
): DialogProps {
  const key = account === 'DSK_DK' ? 'dsk' : 'esa';
  const action = form.action;
  const fields = (intent: string) => ({ ...form.fields, intent, account, accounts: posted.join(',') });
  return {
    id: exclusiveDialogId(account),
    title: t(`accountPicker.${key}.dialog.title`),
    text: [t(`accountPicker.${key}.dialog.text`)],
    warning,
    checkbox: { name: 'confirm', label: t(`accountPicker.${key}.dialog.checkbox`) },
    primary: { label: t('accountPicker.dialog.next'), action, fields: fields('confirm') },
    secondary: { label: t('accountPicker.dialog.cancel'), action, fields: fields('cancel') },
    // With JS both only close: the picker island keeps or unticks the box (views/components/AccountPickerForm.tsx).
    closes: mode === 'modal' ? ['primary', 'secondary'] : undefined,
  };
}

export function ExclusiveDialogScreen(props: DialogProps) {
  return <Dialog {...props} />;
}

export function AccountPickerStep(p: AccountPickerViewProps) {
  const { t, cards } = p;
  const exclusive = cards.filter((c) => c.exclusive).map((c) => c.accountTypeWithCountry);
  const picker: AccountPickerProps = {
    action: p.action,
    fields: p.fields,
    cards: cards.map((c) => {
      const title = t(`account.${accountCode(c.accountTypeWithCountry)}`);
      return {
        account: c.accountTypeWithCountry,
        title,
        text: t(`account.${accountCode(c.accountTypeWithCountry)}.text`),
        readMoreTitle: t('accountPicker.readMore.title', { account: title }),
        popular: c.popular,
        mandatory: c.mandatory,
        exclusive: c.exclusive,
        selected: c.selected,
        documents: c.documents,
      };
    }),
    error: p.error,
    campaign: p.campaign,
    dskExisting: p.dskExisting ?? null,
    dskLocked: p.dskLocked,
    esaDeclined: p.esaDeclined,
    depositGuaranteeUrl: p.depositGuaranteeUrl,
    texts: {
      title: t('accountPicker.title'),
      popular: t('accountPicker.popular'),
      mandatory: t('accountPicker.mandatory'),
      continue: t('accountPicker.continue'),
      readMore: t('accountPicker.readMore'),
      readMoreDocuments: t('accountPicker.readMore.documents'),
      readMoreUnavailable: t('accountPicker.readMore.unavailable'),
      depositGuarantee: t('accountPicker.depositGuarantee'),
      close: t('shell.close'),
      dskInfo: t('accountPicker.dsk.info'),
      dskQuestion: t('accountPicker.dsk.question'),
      dskYes: t('accountPicker.dsk.yes'),
      dskNo: t('accountPicker.dsk.no'),
      dskExistingWarning: t('accountPicker.dsk.existingWarning'),
      esaDeclinedWarning: t('accountPicker.esa.declinedWarning'),
    },
  };
  return (
    <>
      <Island name="accountPicker" component={AccountPicker} props={picker} />
      {exclusive.map((account) => (
        <ModalDialog key={account} {...exclusiveDialog(t, account, { action: p.action, fields: p.dialogFields }, [], 'modal')} />
      ))}
    </>
  );
}
