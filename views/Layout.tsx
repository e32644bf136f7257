// The onboarding page shell (identification-routing-creation §2 "Onboarding page shell"): background, header (logo or Back, and
// the Close X), 3-step progress bar with milestone texts, content next to the signup panel (campaign
// image and unique-selling points), disclaimer and footer. Every text comes from the locale catalogue.
import type { ReactNode } from 'react';
import type { Translate } from '../shared/i18n.ts';
import type { SignupImage } from '../shared/shell.ts';
import type { SystemBanners } from '../shared/systemStatus.ts';
import { SystemStatusBanners } from './components/SystemStatusBanners.tsx';
import { CsrfField } from './components/CsrfField.tsx';
import { routes } from '../shared/routes.ts';
import { progressStatus, progressSteps, type ProgressStep } from '../shared/onboardingProgress.ts';

export interface ShellContext {
  t: Translate;
  supportPhone: string;
  faqUrl: string;
  /** The public site's home (HOME_URL): the logo's target. */
  homeUrl: string;
  /** Close X target: the public site's home (or the in-app close route in a webview); null hides the X. */
  closeUrl: string | null;
  /** identification-routing-creation §2: with a customer type chosen, the identification screens show Back instead of the logo. */
  showBack?: boolean;
  signupImage?: SignupImage;
  /** Content-service background (or the static fallback); decorative. */
  backgroundUrl?: string;
  /** Unique-selling points already filtered by shared/shell.ts visibleUsps. */
  usps?: string[];
  /** The brokerage's system status as banners (shared/systemStatus.ts); none when absent. */
  systemBanners?: SystemBanners;
  /** Cookies are Secure but this request came over plain http: the browser is never given the session cookie. */
  sessionCookieRefused?: boolean;
}

/**
 * Says why the journey cannot go on (Secure cookies over plain http): without it, choosing Private would only show the
 * start page again, the session never stored. First in <main>, like the status banners.
 */
function SessionCookieRefused({ t }: { t: Translate }) {
  return (
    <div className="banner banner--warning" role="region" aria-labelledby="session-cookie-refused">
      <p>
        <strong id="session-cookie-refused">{t('shell.sessionCookieRefused.title')}</strong>
      </p>
      <p>{t('shell.sessionCookieRefused.text')}</p>
    </div>
  );
}

export type { ProgressStep };

// The bar's steps and their milestone texts (identification-routing-creation §1, customer-information §2.2),
// in shared/onboardingProgress.ts: the milestone card's "Step N of 3" reads the same rule.
// `failed`: the current step is where the journey failed (the error feedback page); the step says so in words
// ("failed", visually hidden) and shows a mark besides its colour.
export function ProgressBar({ t, current, failed = false }: { t: Translate; current: ProgressStep; failed?: boolean }) {
  return (
    <nav aria-label={t('shell.progressLabel')}>
      <ol className="progress">
        {progressSteps.map(({ name, milestone }, i) => {
          const status = progressStatus(current, i + 1, failed);
          const isCurrent = status === 'current' || status === 'failed';
          return (
            <li key={name} className={`progress__step progress__step--${status}`} aria-current={isCurrent ? 'step' : undefined}>
              <span>{t(name)}</span>
              <span className="progress__milestone">{t(milestone)}</span>
              <span className="visually-hidden"> ({t('shell.progress.stepStatus', { status })})</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** Back in the header: a plain form post that resets the customer type to none (works without JS). */
export function BackButton({ t }: { t: Translate }) {
  return (
    <form method="post" action={routes.customerType} className="site-header__back">
      <CsrfField />
      <input type="hidden" name="customerType" value="none" />
      <button type="submit" className="btn btn-secondary btn--small">
        <span aria-hidden="true">‹</span> {t('shell.back')}
      </button>
    </form>
  );
}

/** tel: links take digits and a leading + only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

function SignupPanel({ t, image, usps }: { t: Translate; image: SignupImage; usps: string[] }) {
  return (
    <aside className="signup" aria-labelledby="usp-title">
      {/* Illustration only: the panel's heading and list carry the message, so the image has empty alt. */}
      <img className="signup__image" src={`/images/${image}.svg`} alt="" width={320} height={200} />
      <h2 id="usp-title" className="signup__title">
        {t('shell.usp.title')}
      </h2>
      {usps.length > 0 && (
        <ul className="usp-list">
          {usps.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
    </aside>
  );
}

export function Layout({
  shell,
  progress,
  progressFailed = false,
  header,
  children,
  showDisclaimer = true,
  embedded = false,
}: {
  shell: ShellContext;
  progress: ProgressStep | null;
  /** The bar's current step is where the journey failed (identification-routing-creation §2: the error feedback page). */
  progressFailed?: boolean;
  header?: ReactNode;
  children: ReactNode;
  showDisclaimer?: boolean;
  /** Inside the app, which shows its own header and navigation: the content alone. */
  embedded?: boolean;
}) {
  const { t } = shell;
  if (embedded) {
    return (
      <div className="page-frame">
        <div className="page">
          <main id="main" className="content">
            {shell.sessionCookieRefused && <SessionCookieRefused t={t} />}
            {children}
          </main>
        </div>
      </div>
    );
  }
  const headerStart =
    header ??
    (shell.showBack && progress === 1 ? (
      <BackButton t={t} />
    ) : (
      <a className="site-header__logo" href={shell.homeUrl} aria-label={t('shell.logo')}>
        <span aria-hidden="true">◆</span>
      </a>
    ));
  return (
    <div className="page-frame">
      <a className="skip-link visually-hidden" href="#main">
        {t('shell.skipToContent')}
      </a>
      {/* The background band spans the page's top (header and progress bar) and ends where the content begins. */}
      <div className="page-top">
        {shell.backgroundUrl && <img className="page-background" src={shell.backgroundUrl} alt="" aria-hidden="true" />}
        <div className="page page--top">
          <header className="site-header">
            {headerStart}
            {shell.closeUrl && (
              <a className="site-header__close" href={shell.closeUrl} aria-label={t('shell.close')}>
                <span aria-hidden="true">×</span>
              </a>
            )}
          </header>
          {progress !== null && <ProgressBar t={t} current={progress} failed={progressFailed} />}
        </div>
      </div>
      <div className="page">
        <div className="page__body">
          <main id="main" className="content">
            {shell.sessionCookieRefused && <SessionCookieRefused t={t} />}
            {shell.systemBanners && <SystemStatusBanners t={t} banners={shell.systemBanners} />}
            {children}
          </main>
          {shell.signupImage && <SignupPanel t={t} image={shell.signupImage} usps={shell.usps ?? []} />}
        </div>
        {showDisclaimer && (
          <aside className="panel" aria-label={t('shell.disclaimerLabel')}>
            <p>{t('shell.disclaimer')}</p>
          </aside>
        )}
        <footer className="site-footer">
          <p>
            {t('shell.footer.supportLabel')} <a href={telHref(shell.supportPhone)}>{shell.supportPhone}</a>
          </p>
          <p>
            <a href={shell.faqUrl}>{t('shell.footer.faq')}</a>
          </p>
        </footer>
      </div>
    </div>
  );
}
