// Small result pages: cancel / error feedback (identification-routing-creation §2), nightly downtime (§2 "Nightly-downtime page"),
// the abort confirmation (the no-JavaScript form of the abort modal), the generic error and the
// temporarily-unavailable page.
import type { Translate } from '../../shared/i18n.ts';
import { routes } from '../../shared/routes.ts';
import { CsrfField } from '../components/CsrfField.tsx';
import { IdentifyAgainForm } from '../components/IdentifyAgainForm.tsx';

export function FeedbackPage({ t, variant, supportPhone, homeUrl }: { t: Translate; variant: 'cancel' | 'error'; supportPhone: string; homeUrl: string }) {
  return (
    <section className={`result result--${variant}`} aria-labelledby="feedback-title">
      <h1 id="feedback-title">{t(`feedback.${variant}.title`)}</h1>
      <p>{t(`feedback.${variant}.text`, { phone: supportPhone })}</p>
      <p className="actions">
        <a className="btn btn-secondary" href={homeUrl}>
          {t('feedback.goBack')}
        </a>
        <a className="btn" href={routes.start}>
          {t('feedback.tryAgain')}
        </a>
      </p>
    </section>
  );
}

/** When access opens, as the page's locale writes it on the market's clock, and the instant (ISO 8601). */
export interface OpeningTexts {
  time: string;
  date: string;
  iso: string;
}

export function NightlyDowntimePage({
  t,
  justCompletedSignup,
  opening,
  homeUrl,
  exitUrl,
}: {
  t: Translate;
  justCompletedSignup: boolean;
  opening: OpeningTexts;
  /** Go to main page: the public site's home (HOME_URL), in the app's webview the app's close route. */
  homeUrl: string;
  exitUrl: string;
}) {
  return (
    <section className="result" aria-labelledby="nightly-title">
      <h1 id="nightly-title">{t(justCompletedSignup ? 'nightly.titleAfterSignup' : 'nightly.title')}</h1>
      <p>
        <time dateTime={opening.iso}>{t('nightly.text', { time: opening.time, date: opening.date })}</time>
      </p>
      <p className="actions">
        <a className="btn" href={homeUrl}>
          {t('nightly.toMain')}
        </a>
        <a className="btn btn-secondary" href={exitUrl}>
          {t('nightly.exit')}
        </a>
      </p>
    </section>
  );
}

export function AbortPage({ t, exitAction, continueUrl }: { t: Translate; exitAction: string; continueUrl: string }) {
  return (
    <section role="dialog" aria-modal="false" aria-labelledby="abort-title" className="dialog">
      <h1 id="abort-title">{t('abort.title')}</h1>
      <form method="post" action={exitAction}>
        <CsrfField />
        <button type="submit" className="btn">
          {t('abort.yes')}
        </button>
      </form>
      <a className="btn btn-secondary" href={continueUrl}>
        {t('abort.no')}
      </a>
    </section>
  );
}

export function GenericErrorPage({ t, supportPhone, notFound = false }: { t: Translate; supportPhone: string; notFound?: boolean }) {
  return (
    <section className="result result--error" aria-labelledby="error-title">
      <h1 id="error-title">{t('error.generic.title')}</h1>
      <p>{notFound ? t('error.notFound') : t('error.generic.text', { phone: supportPhone })}</p>
      <p>
        <a className="btn" href={routes.start}>
          {t('error.tryAgain')}
        </a>
      </p>
    </section>
  );
}

/**
 * Redis (sessions) unreachable: answered with 503 by the error middleware. Rendered without the session,
 * so it shows nothing of the journey; "Try again" repeats the page the person asked for (`retryHref`).
 */
export function ServiceUnavailablePage({ t, supportPhone, retryHref }: { t: Translate; supportPhone: string; retryHref: string }) {
  return (
    <section className="result result--error" aria-labelledby="unavailable-title">
      <h1 id="unavailable-title">{t('error.unavailable.title')}</h1>
      <p>{t('error.unavailable.text', { phone: supportPhone })}</p>
      <p>
        <a className="btn" href={retryHref}>
          {t('error.tryAgain')}
        </a>
      </p>
    </section>
  );
}

/** 503 when another request of the same person holds the session lock: nothing was changed, try again. */
export function SessionBusyPage({ t, retryHref }: { t: Translate; retryHref: string }) {
  return (
    <section className="result result--error" aria-labelledby="busy-title">
      <h1 id="busy-title">{t('error.busy.title')}</h1>
      <p>{t('error.busy.text')}</p>
      <p>
        <a className="btn" href={retryHref}>
          {t('error.busy.retry')}
        </a>
      </p>
    </section>
  );
}

/** The spinner the native app watches for in its webview (login-in-app, close-signup-in-app): nothing else to read. */
export function InAppSpinnerPage({ t, title }: { t: Translate; title: string }) {
  // Spinner-only to the eye; the heading names the page for screen readers and the page outline.
  return (
    <>
      <h1 className="visually-hidden">{title}</h1>
      <div className="spinner" role="status">
        <span className="visually-hidden">{t('inApp.loading')}</span>
      </div>
    </>
  );
}

/**
 * An upstream call failed where the page had no answer of its own: a brokerage session that has ended asks the person
 * to identify again (choosing Private starts it); anything else says to try again, which repeats the page asked for.
 */
export function UpstreamFailurePage({ t, sessionEnded, retryHref }: { t: Translate; sessionEnded: boolean; retryHref: string }) {
  if (sessionEnded) {
    return (
      <section className="result result--error" aria-labelledby="upstream-failure-title">
        <h1 id="upstream-failure-title">{t('customerInformation.error.SESSION_EXPIRED_ERROR')}</h1>
        <IdentifyAgainForm t={t} />
      </section>
    );
  }
  return (
    <section className="result result--error" aria-labelledby="upstream-failure-title">
      <h1 id="upstream-failure-title">{t('customerInformation.error.TRY_AGAIN_ERROR.title')}</h1>
      <p>{t('customerInformation.error.TRY_AGAIN_ERROR.text')}</p>
      <p>
        <a className="btn" href={retryHref}>
          {t('error.tryAgain')}
        </a>
      </p>
    </section>
  );
}
