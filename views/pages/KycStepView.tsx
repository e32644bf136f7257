// The KYC step (customer-information.md §2.3 "KYC questionnaire", "Compliance dialogs" PEP, §4.6, §4.7):
// the views of its screens — the loader, a page of the answer session, the PEP dialog, "We need more
// information from you", and the try-again screen of a run that failed. The question page is a plain form
// with Continue (its script, client/islands/kycQuestionIsland.ts, advances single-choice pages at once and asks in
// the PEP modal first); the loader refreshes itself without JavaScript (the page machine's busy screen) and asks
// with it.
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { pepHelpItems } from '../../shared/pepHelp.ts';
import { Island } from '../components/Island.tsx';
import type { KycLoaderScriptProps } from '../../client/islands/kycLoaderIsland.ts';
import { fieldName, questionAnchor, type KycControl, type KycQuestionScriptProps } from '../../client/islands/kycQuestionIsland.ts';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { complianceDialogProps } from '../components/ComplianceDialog.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { ErrorSummary } from '../components/ErrorSummary.tsx';
import { StepError } from './CustomerInformationPageView.tsx';

export interface KycQuestionView {
  id: number;
  text: string;
  control: KycControl;
  options: { id: number; text: string }[];
  helpText: string | null;
  /** What is chosen (kept from a refused post, or what was answered before Back). */
  chosen: number[];
  /** The server's message for this question. */
  error: string | null;
}
export const PEP_DIALOG_ID = 'pep-dialog';

export function KycLoaderScreen(props: { t: Translate; status: 'preparing' | 'analysing'; shownUrl: string; step: string; screen: string; slowInMs: number }) {
  const { t } = props;
  const slowInMs = Math.max(0, props.slowInMs);
  const script: KycLoaderScriptProps = { shownUrl: props.shownUrl, step: props.step, screen: props.screen, slowText: t('kyc.loader.slow'), slowInMs };
  return (
    <Island name="kycLoader" props={script}>
      <div className="kyc-loader" role="status" aria-live="polite">
        <span className="spinner spinner--large" aria-hidden="true" />
        <h1>{t(`kyc.loader.${props.status}`)}</h1>
        {slowInMs === 0 && <p>{script.slowText}</p>}
      </div>
    </Island>
  );
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

/** A question's help: a disclosure without JavaScript, and the modal its script opens instead (a bottom sheet on a phone). */
function HelpText({ t, q }: { t: Translate; q: KycQuestionView }) {
  if (!q.helpText) return null;
  return (
    <>
      <details className="kyc-help">
        <summary>{t('kyc.help.open')}</summary>
        <p>{q.helpText}</p>
      </details>
      <dialog className="help-sheet" aria-labelledby={`help-${q.id}-title`}>
        <h2 id={`help-${q.id}-title`}>{q.text}</h2>
        <p>{q.helpText}</p>
        <button type="button" className="btn btn-secondary">
          {t('kyc.help.close')}
        </button>
      </dialog>
    </>
  );
}

/**
 * One question (customer-information §2.3): single choice of more than 2 answers as a dropdown, of 2 as radios,
 * multiple choice as checkboxes; what is chosen, and the server's message above the answers while unanswered.
 */
function KycQuestion({ t, q }: { t: Translate; q: KycQuestionView }) {
  const name = fieldName(q.id);
  const error = q.chosen.length > 0 ? null : q.error;
  const errorId = `${name}-error`;
  const errorLine = error && (
    <p id={errorId} className="field__error">
      {error}
    </p>
  );
  if (q.control === 'select') {
    return (
      <div className="field kyc-question">
        <label htmlFor={name}>{q.text}</label>
        <HelpText t={t} q={q} />
        {errorLine}
        <select
          id={name}
          name={name}
          defaultValue={q.chosen[0] === undefined ? '' : String(q.chosen[0])}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        >
          <option value="">{t('kyc.select.placeholder')}</option>
          {q.options.map((o) => (
            <option key={o.id} value={String(o.id)}>
              {o.text}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <fieldset className="kyc-question" aria-describedby={error ? errorId : undefined}>
      <legend>{q.text}</legend>
      <HelpText t={t} q={q} />
      {errorLine}
      {q.options.map((o) => {
        const id = `${name}-${o.id}`;
        return (
          <div key={o.id} className="checkbox-card">
            <input type={q.control === 'checkboxes' ? 'checkbox' : 'radio'} id={id} name={name} value={String(o.id)} defaultChecked={q.chosen.includes(o.id)} />
            <label htmlFor={id}>{o.text}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

export function KycQuestionScreen(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  pageKey: string;
  title: string;
  questions: KycQuestionView[];
  /** With a PEP question on the page: the modal and what its yes and no are. */
  pep: (NonNullable<KycQuestionScriptProps['pep']> & { dialog: DialogProps }) | null;
  /** Above the page: why it is shown again with answers chosen (the first page of a run restarted out of step). */
  notice?: string | null;
}) {
  const { t, pep, questions } = props;
  const script: KycQuestionScriptProps = {
    questions: questions.map((q) => ({ id: q.id, control: q.control, error: q.error })),
    texts: { chooseAlternative: t('kyc.chooseAlternative'), errorSummary: t('form.error.summary') },
    pep: pep ? { dialogId: pep.dialogId, questionId: pep.questionId, yes: pep.yes, no: pep.no } : null,
  };
  const serverErrors = questions.filter((q) => q.error && q.chosen.length === 0).map((q) => [questionAnchor(q), q.error!] as const);
  return (
    <>
      {props.notice && <p className="banner">{props.notice}</p>}
      <Island name="kycQuestion" props={script}>
        {/* The page's key names the page answered, so an answer from a stale tab is not taken for another page. */}
        <form method="post" action={props.action} noValidate className="kyc">
          <ScreenFields fields={props.fields} />
          <input type="hidden" name="kycPage" value={props.pageKey} />
          <h1>{props.title}</h1>
          <ErrorSummary t={t} errors={serverErrors} />
          {/* WCAG 3.2.2: shown by the script, which makes a choice move on. */}
          {questions.every((q) => q.control !== 'checkboxes') && (
            <p className="hint" hidden>
              {t('kyc.autoAdvance')}
            </p>
          )}
          {questions.map((q) => (
            <KycQuestion key={q.id} t={t} q={q} />
          ))}
          <button type="submit" className="btn">
            {t('kyc.continue')}
          </button>
        </form>
      </Island>
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
