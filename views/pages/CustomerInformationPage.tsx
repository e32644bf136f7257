// The customer-information page (customer-information.md §2.2): header with back, exit and progress,
// then the current step. Each step is a plain form post.
import type { ReactNode } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { AccountTypeEntry } from '../../shared/accountPicker.ts';
import { accountCode } from '../../shared/accountPicker.ts';

export interface StepHeader {
  /** Form action of Back; null when Back is disabled (first step, after a milestone). */
  backAction: string | null;
  exitUrl: string;
  progressPercent: number;
}

export function StepHeaderBar({ t, header }: { t: Translate; header: StepHeader }) {
  return (
    <div className="step-header">
      <form method="post" action={header.backAction ?? undefined}>
        <button type="submit" className="btn btn-secondary" disabled={header.backAction === null}>
          {t('customerInformation.back')}
        </button>
      </form>
      <progress max={100} value={header.progressPercent} aria-label={t('customerInformation.progress', { percent: header.progressPercent })} />
      <a className="btn btn-secondary" href={header.exitUrl}>
        {t('customerInformation.exit')}
      </a>
    </div>
  );
}

export function MilestoneStep({ t, milestone, action }: { t: Translate; milestone: 'one' | 'two' | 'three'; action: string }) {
  const number = milestone === 'one' ? 1 : milestone === 'two' ? 2 : 3;
  return (
    <section className="milestone" aria-labelledby="milestone-title">
      <p className="milestone__label">
        {t('milestone.step', { number })} · {t(`shell.milestone.${milestone}`)}
      </p>
      <h1 id="milestone-title">{t(`milestone.${milestone}.title`)}</h1>
      <form method="post" action={action}>
        <input type="hidden" name="step" value={`MILESTONE_${milestone.toUpperCase()}_STEP`} />
        <button type="submit" className="btn">
          {t(`milestone.${milestone}.button`)}
        </button>
      </form>
    </section>
  );
}

export function AccountPickerStep({
  t,
  accounts,
  action,
  error,
}: {
  t: Translate;
  accounts: AccountTypeEntry[];
  action: string;
  error: string | null;
}) {
  return (
    <form method="post" action={action} noValidate>
      {/* The step field tells the server which step a post answers, so a stale tab cannot skip ahead. */}
      <input type="hidden" name="step" value="ACCOUNT_PICKER_STEP" />
      <fieldset aria-describedby={error ? 'picker-error' : undefined}>
        <legend>
          <h1>{t('accountPicker.title')}</h1>
        </legend>
        {error && (
          <p id="picker-error" className="error-summary" role="alert">
            {error}
          </p>
        )}
        {accounts.map((a) => {
          const code = accountCode(a.accountTypeWithCountry);
          const id = `account-${a.accountTypeWithCountry}`;
          return (
            <div key={a.accountTypeWithCountry} className={`checkbox-card${a.mandatory ? ' checkbox-card--locked' : ''}`}>
              {/* A disabled box is not posted, so a locked account also travels as a hidden field. */}
              {a.mandatory && <input type="hidden" name="accounts" value={a.accountTypeWithCountry} />}
              <input
                type="checkbox"
                id={id}
                name="accounts"
                value={a.accountTypeWithCountry}
                defaultChecked={a.selected}
                disabled={a.mandatory}
                aria-describedby={`${id}-text`}
              />
              <label htmlFor={id}>
                <span className="checkbox-card__title">{t(`account.${code}`)}</span>
                {a.popular && <span className="badge">{t('accountPicker.popular')}</span>}
                {a.mandatory && <span className="badge">{t('accountPicker.mandatory')}</span>}
              </label>
              <p id={`${id}-text`} className="checkbox-card__text">
                {t(`account.${code}.text`)}
              </p>
            </div>
          );
        })}
      </fieldset>
      <button type="submit" className="btn">
        {t('accountPicker.continue')}
      </button>
    </form>
  );
}

export function StepError({ t, kind }: { t: Translate; kind: 'SESSION_EXPIRED_ERROR' | 'TRY_AGAIN_ERROR' }): ReactNode {
  if (kind === 'SESSION_EXPIRED_ERROR') {
    return (
      <p className="banner banner--error" role="alert">
        {t('customerInformation.error.SESSION_EXPIRED_ERROR')}
      </p>
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

/** Shown when the prospect's steps have no view in this build (the legacy single form). */
export function StepUnavailable({ t, formUrl }: { t: Translate; formUrl: string }) {
  return (
    <section className="result" aria-labelledby="step-unavailable-title">
      <h1 id="step-unavailable-title">{t('customerInformation.unavailable.title')}</h1>
      <p>{t('customerInformation.unavailable.text')}</p>
      <p>
        <a className="btn" href={formUrl}>
          {t('customerInformation.unavailable.button')}
        </a>
      </p>
    </section>
  );
}
