// The compliance dialogs a sensitive answer opens (customer-information.md §2.3 "Compliance dialogs", §4.7, §4.10) as
// one family: the props for views/components/Dialog.tsx, rendered as `<Dialog>` (the no-JS screen) or `<ModalDialog>`
// (the modal), e.g. complianceDialogProps(t, 'PEP', { id, primary, secondary, manualFormBase }). Which link to the manual
// form and what INVESTMENT_RISK's actions mean: docs/islands.md "The dialog"; which answer opens which dialog:
// shared/sensitiveAnswers.ts.
import type { Translate } from '../../shared/i18n.ts';
import { manualFormUrl, offersManualForm, type ComplianceDialogType, type SensitiveAnswerDialogType } from '../../shared/complianceDialogTypes.ts';
import type { DialogAction, DialogProps, DialogResult } from './Dialog.tsx';

/** Where an action goes: a form post with hidden fields, or a link. */
export type ComplianceDialogTarget = { action: string; fields?: Record<string, string> } | { href: string };

interface CommonOptions {
  /** DOM id, unique on the page (a screen and a modal of the same dialog on one page need two). */
  id: string;
  primary: ComplianceDialogTarget;
  /** Message arguments, e.g. { country } (FATCA: the country's name; CITIZENSHIP, RESIDENCY: its code). */
  values?: Record<string, string | number>;
  warning?: string;
  closes?: DialogResult[];
  openers?: string[];
  openOnLoad?: boolean;
}

export type ComplianceDialogOptions<T extends SensitiveAnswerDialogType> = CommonOptions &
  (T extends ComplianceDialogType ? { manualFormBase: string; secondary: ComplianceDialogTarget | 'manualForm' } : { secondary: ComplianceDialogTarget });

interface Texts {
  title: string;
  text: readonly string[];
  primary: string;
  secondary: string;
  /** The manual form link's label. */
  form?: string;
}

// FATCA, CITIZENSHIP and RESIDENCY keep the keys (and so the texts) their steps introduced.
const texts: Record<SensitiveAnswerDialogType, Texts> = {
  FATCA: {
    title: 'taxInformation.fatca.title',
    text: ['taxInformation.fatca.text', 'taxInformation.fatca.attestText'],
    primary: 'taxInformation.fatca.attest',
    secondary: 'taxInformation.fatca.cancel',
    form: 'taxInformation.fatca.form',
  },
  // The secondary action goes on with the other citizenships (customer-information §2.3, delayed 700 ms by the choice island).
  CITIZENSHIP: {
    title: 'citizenship.dialog.title',
    text: ['citizenship.dialog.text'],
    primary: 'citizenship.onlyHome',
    secondary: 'citizenship.dialog.continue',
    form: 'citizenship.dialog.form',
  },
  RESIDENCY: {
    title: 'residency.dialog.title',
    text: ['residency.dialog.text'],
    primary: 'residency.dialog.continue',
    secondary: 'complianceDialog.cancel',
    form: 'residency.dialog.form',
  },
  PEP: {
    title: 'complianceDialog.PEP.title',
    text: ['complianceDialog.PEP.text', 'complianceDialog.PEP.manual'],
    primary: 'complianceDialog.PEP.notPep',
    secondary: 'complianceDialog.cancel',
    form: 'complianceDialog.PEP.form',
  },
  INVESTMENT_RISK: {
    title: 'complianceDialog.INVESTMENT_RISK.title',
    text: ['complianceDialog.INVESTMENT_RISK.text', 'complianceDialog.INVESTMENT_RISK.confirmText'],
    primary: 'complianceDialog.INVESTMENT_RISK.confirm',
    secondary: 'complianceDialog.cancel',
  },
};

const action = (label: string, target: ComplianceDialogTarget): DialogAction => ({ label, ...target });

export function complianceDialogProps<T extends SensitiveAnswerDialogType>(t: Translate, type: T, options: ComplianceDialogOptions<T>): DialogProps {
  const keys = texts[type];
  const { values } = options;
  const secondary: ComplianceDialogTarget | 'manualForm' = options.secondary;
  let form: { label: string; href: string } | undefined;
  if (offersManualForm(type)) {
    const base = (options as { manualFormBase: string }).manualFormBase;
    form = { label: t(keys.form!, values), href: manualFormUrl(base, type) };
  } else if (secondary === 'manualForm') {
    throw new Error(`${type} has no manual form`);
  }
  return {
    id: options.id,
    title: t(keys.title, values),
    text: keys.text.map((key) => t(key, values)),
    ...(options.warning !== undefined ? { warning: options.warning } : {}),
    primary: action(t(keys.primary, values), options.primary),
    secondary: secondary === 'manualForm' ? form! : action(t(keys.secondary, values), secondary),
    // The manual form is a third way out, unless it is the secondary action itself.
    ...(form && secondary !== 'manualForm' ? { link: form } : {}),
    ...(options.closes ? { closes: options.closes } : {}),
    ...(options.openers ? { openers: options.openers } : {}),
    ...(options.openOnLoad ? { openOnLoad: true } : {}),
  };
}
