// The KYC step (customer-information.md §2.3 "KYC questionnaire", "Compliance dialogs" PEP, §4.6, §4.7): the views
// of its screens: the loader, a page of the answer session, the PEP dialog, "We need more information from you", and
// the try-again screen of a run that failed. The question page is the kycQuestion island
// (views/components/KycQuestionForm.tsx); the loader refreshes itself without JavaScript (the page machine's busy
// screen) and asks with it.
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { pepHelpItems } from '../../shared/pepHelp.ts';
import { Island } from '../components/Island.tsx';
import { KycLoader, type KycLoaderProps } from '../components/KycLoader.tsx';
import { KycQuestionForm, type KycQuestionFormProps, type KycQuestionView } from '../components/KycQuestionForm.tsx';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { StepError } from './CustomerInformationPageView.tsx';

export type { KycQuestionView } from '../components/KycQuestionForm.tsx';
export const PEP_DIALOG_ID = 'pep-dialog';

export function KycLoaderScreen(props: { t: Translate; status: 'preparing' | 'analysing'; shownUrl: string; step: string; screen: string; slowInMs: number }) {
  const { t } = props;
  const loader: KycLoaderProps = {
    shownUrl: props.shownUrl,
    step: props.step,
    screen: props.screen,
    title: t(`kyc.loader.${props.status}`),
    slowText: t('kyc.loader.slow'),
    slowInMs: Math.max(0, props.slowInMs),
  };
  return <Island name="kycLoader" component={KycLoader} props={loader} />;
}

/** The PEP dialog's help: who counts as politically exposed, lists as long as the market's (customer-information §9). */
export function pepHelp(t: Translate, market: CountryCode): NonNullable<DialogProps['details']> {
  const counts = pepHelpItems(market);
  const items = (list: 'public' | 'family' | 'coworkers') => Array.from({ length: counts[list] }, (_, i) => t(`complianceDialog.PEP.help.${list}.${i + 1}`));
  return {
    summary: t('complianceDialog.PEP.help.title'),
    sections: (['public', 'family', 'coworkers'] as const).map((list) => ({ title: t(`complianceDialog.PEP.help.${list}.title`), items: items(list) })),
    note: t('complianceDialog.PEP.help.cessation'),
  };
}

/**
 * PEP (customer-information §2.3 "Compliance dialogs", §4.7): the primary action answers no (223) and goes on;
 * Cancel goes back to the question with nothing answered (as the legacy form's PEP dialog); the external
 * manual form with exit=PEP is the third way. As a modal both actions only close it (the question's island
 * sets no and posts, or clears the answer); as the `pep` screen they post (Cancel with intent=cancel).
 */
export function pepDialog(
  t: Translate,
  options: { action: string; fields: ScreenFieldValues; market: CountryCode; manualFormBase: string; id?: string },
): DialogProps {
  return {
    ...complianceDialogProps(t, 'PEP', {
      id: options.id ?? PEP_DIALOG_ID,
      primary: { action: options.action, fields: { ...options.fields } },
      secondary: { action: options.action, fields: { ...options.fields, intent: 'cancel' } },
      manualFormBase: options.manualFormBase,
      closes: ['primary', 'secondary'],
    }),
    details: pepHelp(t, options.market),
  };
}

export function KycQuestionScreen(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  pageKey: string;
  title: string;
  questions: KycQuestionView[];
  /** With a PEP question on the page: the modal and what its yes and no are. */
  pep: (NonNullable<KycQuestionFormProps['pep']> & { dialog: DialogProps }) | null;
  /** Above the page: why it is shown again with answers chosen (the first page of a run restarted out of step). */
  notice?: string | null;
}) {
  const { t, pep } = props;
  const form: KycQuestionFormProps = {
    action: props.action,
    fields: props.fields,
    pageKey: props.pageKey,
    title: props.title,
    questions: props.questions,
    texts: {
      autoAdvance: t('kyc.autoAdvance'),
      continue: t('kyc.continue'),
      chooseAlternative: t('kyc.chooseAlternative'),
      errorSummary: t('form.error.summary'),
      selectPlaceholder: t('kyc.select.placeholder'),
      helpOpen: t('kyc.help.open'),
      helpClose: t('kyc.help.close'),
    },
    pep: pep ? { dialogId: pep.dialogId, questionId: pep.questionId, yes: pep.yes, no: pep.no } : null,
  };
  return (
    <>
      {props.notice && <p className="banner">{props.notice}</p>}
      <Island name="kycQuestion" component={KycQuestionForm} props={form} />
      {pep && <ModalDialog {...pep.dialog} />}
    </>
  );
}

/** customer-information §2.3, §4.6: the KYC submit answered 403. "Provide more information" opens the external signing service. */
export function KycMoreInformationScreen({ t, url }: { t: Translate; url: string }) {
  return (
    <section className="result" aria-labelledby="kyc-more-information-title">
      <h1 id="kyc-more-information-title">{t('kyc.moreInformation.title')}</h1>
      <p>{t('kyc.moreInformation.text')}</p>
      <p>
        <a className="btn" href={url}>
          {t('kyc.moreInformation.button')}
        </a>
      </p>
    </section>
  );
}

/** The run ended in the generic error (customer-information §4.6: the start's 60th 409, or another status): Try again starts a new run. */
export function KycFailedScreen({ t, action, fields }: { t: Translate; action: string; fields: ScreenFieldValues }) {
  return (
    <>
      <StepError t={t} kind="TRY_AGAIN_ERROR" />
      <form method="post" action={action}>
        <ScreenFields fields={fields} />
        <button type="submit" className="btn">
          {t('customerInformation.error.TRY_AGAIN_ERROR.retry')}
        </button>
      </form>
    </>
  );
}
