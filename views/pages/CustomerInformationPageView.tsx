// The customer-information page (customer-information.md §2.2): header with back, exit and progress,
// then the current step. Each step is a plain form post.
import type { ReactNode } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import { FaqPanel } from '../components/FaqPanel.tsx';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { CsrfField } from '../components/CsrfField.tsx';
import { IdentifyAgainForm } from '../components/IdentifyAgainForm.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { SignedCheckForm, type SignedCheckProps } from '../components/SignedCheckForm.tsx';
import { AnswersSummary, Change, type SummarySection } from '../components/AnswersSummary.tsx';
import { milestoneCardStep } from '../../shared/onboardingProgress.ts';

export interface StepHeader {
  /** Form action of Back; null when Back is disabled (first step, after a milestone). */
  backAction: string | null;
  exitUrl: string;
  /** The step itself: where 'No, continue signup' of the no-JS abort screen returns. */
  continueUrl: string;
  progressPercent: number;
  /** While a loader runs (the KYC step's): no Back, and the logo instead of progress (customer-information §2.2). */
  navigationDisabled?: boolean;
}

/** Why a step's calls failed (customer-information §7): the brokerage session has ended, or anything else. */
export type StepErrorKind = 'SESSION_EXPIRED_ERROR' | 'TRY_AGAIN_ERROR';

/** The page around the step shown: the header, the banners, the step's screen (`children`) and the FAQ. */
export function StepPage({
  t,
  header,
  error,
  notSaved,
  step,
  screen,
  faq,
  children,
}: {
  t: Translate;
  header: StepHeader;
  error?: StepErrorKind;
  /** The previous post was refused by the session lock: what was not saved. */
  notSaved?: 'upload' | 'change';
  /** The step's id; none once signing has closed the steps. */
  step?: string;
  screen: string;
  faq: { url: string; country: CountryCode };
  children: ReactNode;
}) {
  return (
    <>
      <StepHeaderBar t={t} header={header} />
      {error && <StepError t={t} kind={error} />}
      {notSaved && (
        <p className="banner banner--error" role="alert">
          {t(`customerInformation.notSaved.${notSaved}`)}
        </p>
      )}
      <div className="step" data-step={step} data-screen={screen}>
        {children}
      </div>
      <FaqPanel t={t} faqUrl={faq.url} country={faq.country} />
    </>
  );
}

/** Where the step's view would be when its own calls failed: the banner says why; try again reloads. */
export function ViewUnavailable({ t, kind, href }: { t: Translate; kind: StepErrorKind; href: string }) {
  if (kind === 'SESSION_EXPIRED_ERROR') return null;
  return (
    <p>
      <a className="btn" href={href}>
        {t('customerInformation.error.TRY_AGAIN_ERROR.retry')}
      </a>
    </p>
  );
}

/** A step this build cannot show: the try-again banner and the way to try again, nothing else. */
export function StepUnavailable({ t, href }: { t: Translate; href: string }) {
  return (
    <>
      <StepError t={t} kind="TRY_AGAIN_ERROR" />
      <ViewUnavailable t={t} kind="TRY_AGAIN_ERROR" href={href} />
    </>
  );
}

export function StepHeaderBar({ t, header }: { t: Translate; header: StepHeader }) {
  const disabled = header.navigationDisabled === true;
  return (
    <div className="step-header">
      <form method="post" action={header.backAction ?? undefined}>
        <CsrfField />
        <button type="submit" className="btn btn-secondary" disabled={header.backAction === null || disabled}>
          {t('customerInformation.back')}
        </button>
      </form>
      {disabled ? (
        // Exit stays: a person can always leave, even while waiting.
        <span className="step-header__logo" aria-hidden="true">
          ◆
        </span>
      ) : (
        <progress max={100} value={header.progressPercent} aria-label={t('customerInformation.progress', { percent: header.progressPercent })} />
      )}
      {/* Without JS the link shows the abort dialog as its own screen; with JS it opens the modal. */}
      <a id="ci-exit" className="btn btn-secondary" href={header.exitUrl}>
        {t('customerInformation.exit')}
      </a>
      <ModalDialog {...abortDialog(t, header.exitUrl, header.continueUrl, ['ci-exit'])} />
    </div>
  );
}

/** customer-information §2.2 abort modal: 'Yes, exit' posts the exit; 'No, continue signup' returns to the step. */
export function abortDialog(t: Translate, exitAction: string, continueUrl: string, openers?: string[]): DialogProps {
  return {
    id: 'abort-dialog',
    title: t('abort.title'),
    text: [],
    primary: { label: t('abort.yes'), action: exitAction },
    secondary: { label: t('abort.no'), href: continueUrl },
    openers,
  };
}

export function MilestoneStep({
  t,
  milestone,
  action,
  fields,
  error,
  signedCheck,
  summary,
  notReady,
}: {
  t: Translate;
  milestone: 'one' | 'two' | 'three';
  action: string;
  fields: ScreenFieldValues;
  /** Why the last post failed (milestone three: high risk, not signed yet). */
  error?: string;
  /** Milestone three once the signing page was opened: "I have signed" (customer-information §4.8). */
  signedCheck?: SignedCheckProps;
  /** Milestone three: "Check your answers" above the sign button (WCAG 2.2 SC 3.3.4). */
  summary?: { title: string; intro?: string; sections: readonly SummarySection[] };
  /** Milestone three while the application is not ready for signing: what is missing, each with the post that opens its step; no Sign. */
  notReady?: { text: string; steps: readonly { label: string; fields: Record<string, string> }[] };
}) {
  const cardStep = milestoneCardStep();
  return (
    <section className="milestone" aria-labelledby="milestone-title">
      <p className="milestone__label">
        {/* The bar's step and its name (shared/onboardingProgress.ts), never a count of its own. */}
        {t('milestone.step', { number: cardStep.number })} · {t(cardStep.name)}
      </p>
      <h1 id="milestone-title">{t(`milestone.${milestone}.title`)}</h1>
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      {notReady && (
        <div className="banner banner--error" role="alert">
          <p>{notReady.text}</p>
          {notReady.steps.map((step) => (
            <Change key={step.label} change={{ ...step, action }} />
          ))}
        </div>
      )}
      {summary && <AnswersSummary {...summary} />}
      {!notReady && (
        <form method="post" action={action}>
          <ScreenFields fields={fields} />
          <button type="submit" className="btn">
            {t(`milestone.${milestone}.button`)}
          </button>
        </form>
      )}
      {signedCheck && <SignedCheckForm {...signedCheck} />}
    </section>
  );
}

/**
 * customer-information §7, §8: the call's error. Session expired (the brokerage session has ended, or ours):
 * the spec's text and the way on, identifying again (choosing Private again starts the identification in
 * this browser; the same person finds what they typed kept, server/stages/identification/identified.ts).
 */
export function StepError({ t, kind }: { t: Translate; kind: StepErrorKind }): ReactNode {
  if (kind === 'SESSION_EXPIRED_ERROR') {
    return (
      <div className="banner banner--error" role="alert">
        <p>{t('customerInformation.error.SESSION_EXPIRED_ERROR')}</p>
        <IdentifyAgainForm t={t} />
      </div>
    );
  }
  return (
    <div className="banner banner--error" role="alert">
      <p>
        <strong>{t('customerInformation.error.TRY_AGAIN_ERROR.title')}</strong>
      </p>
      <p>{t('customerInformation.error.TRY_AGAIN_ERROR.text')}</p>
    </div>
  );
}
