// "Before we get started. Who's the account for?" (spec §2 "Customer type selection").
// Each card is a plain form post, so the choice works without JavaScript.
import type { Translate } from '../../shared/i18n.ts';

const cards = [
  { value: 'private', title: 'customerType.private', text: 'customerType.privateText' },
  { value: 'corporate', title: 'customerType.business', text: 'customerType.businessText' },
  { value: 'minor', title: 'customerType.underage', text: 'customerType.underageText' },
] as const;

export function CustomerTypePage({ t, action, loginUrl }: { t: Translate; action: string; loginUrl: string }) {
  return (
    <>
      <h1>{t('customerType.title')}</h1>
      <form method="post" action={action} className="card-grid">
        {cards.map((c) => (
          <button key={c.value} type="submit" name="customerType" value={c.value} className="card">
            <span className="card__title">{t(c.title)}</span>
            <span className="card__text">{t(c.text)}</span>
          </button>
        ))}
      </form>
      <p>
        <a href={loginUrl}>{t('customerType.login')}</a>
      </p>
      <p className="risk-reminder">{t('customerType.riskReminder')}</p>
    </>
  );
}

/** Corporate and minor applicants use separate manual forms (spec §1). */
export function ExternalFormPage({ t, type, formUrl, resetAction }: { t: Translate; type: 'corporate' | 'minor'; formUrl: string; resetAction: string }) {
  return (
    <>
      <h1>{t(type === 'corporate' ? 'customerType.business' : 'customerType.underage')}</h1>
      <p>{t('customerType.externalFormIntro', { type })}</p>
      <p>
        <a className="btn" href={formUrl}>
          {t('customerType.externalFormLink')}
        </a>
      </p>
      <form method="post" action={resetAction}>
        <button type="submit" name="customerType" value="none" className="btn btn-secondary">
          {t('customerType.chooseAnother')}
        </button>
      </form>
    </>
  );
}
