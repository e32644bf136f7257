// The onboarding page shell (spec §2 "Onboarding page shell"): header, 3-step progress bar, content,
// disclaimer and footer. Every text comes from the locale catalogue through `t`.
import type { ReactNode } from 'react';
import type { Translate } from '../shared/i18n.ts';

export interface ShellContext {
  t: Translate;
  supportPhone: string;
  faqUrl: string;
  /** Close X target: / (or the in-app close route in a webview); null hides the X. */
  closeUrl: string | null;
}

export type ProgressStep = 1 | 2 | 3 | 4;

const progressKeys = ['shell.progress.identification', 'shell.progress.customerInformation', 'shell.progress.customerCreation'] as const;

export function ProgressBar({ t, current }: { t: Translate; current: ProgressStep }) {
  return (
    <nav aria-label={t('shell.progressLabel')}>
      <ol className="progress">
        {progressKeys.map((key, i) => {
          const step = i + 1;
          const status = step < current ? 'done' : step === current ? 'current' : 'upcoming';
          return (
            <li key={key} className={`progress__step progress__step--${status}`} aria-current={status === 'current' ? 'step' : undefined}>
              <span>{t(key)}</span>
              <span className="visually-hidden"> ({t('shell.progress.stepStatus', { status })})</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function Layout({
  shell,
  progress,
  header,
  children,
  showDisclaimer = true,
}: {
  shell: ShellContext;
  progress: ProgressStep | null;
  header?: ReactNode;
  children: ReactNode;
  showDisclaimer?: boolean;
}) {
  const { t } = shell;
  return (
    <div className="page">
      <a className="skip-link visually-hidden" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="site-header">
        {header ?? (
          <a className="site-header__logo" href="/" aria-label={t('shell.logo')}>
            <span aria-hidden="true">◆</span>
          </a>
        )}
        {shell.closeUrl && (
          <a className="site-header__close" href={shell.closeUrl} aria-label={t('shell.close')}>
            <span aria-hidden="true">×</span>
          </a>
        )}
      </header>
      {progress !== null && <ProgressBar t={t} current={progress} />}
      <main id="main" className="content">
        {children}
      </main>
      {showDisclaimer && (
        <aside className="panel" aria-label={t('shell.disclaimer').split('.')[0]}>
          <p>{t('shell.disclaimer')}</p>
        </aside>
      )}
      <footer className="site-footer">
        <p>{t('shell.footer.support', { phone: shell.supportPhone })}</p>
        <p>
          <a href={shell.faqUrl}>{t('shell.footer.faq')}</a>
        </p>
      </footer>
    </div>
  );
}
