// "Before we get started. Who's the account for?" (identification-routing-creation §2 "Customer type selection") and the business
// and minor account type lists. Each card is a plain form post or link, so everything works without JS.
import type { Translate } from '../../shared/i18n.ts';
import type { ExternalAccountType, ExternalApplicantType } from '../../shared/accountTypeLists.ts';
import { accountBadge } from '../../shared/accountBadges.ts';
import { CsrfField } from '../components/CsrfField.tsx';

const otherCards = [
  { value: 'corporate', title: 'customerType.business', text: 'customerType.businessText' },
  { value: 'minor', title: 'customerType.underage', text: 'customerType.underageText' },
] as const;

export function CustomerTypePage({
  t,
  action,
  loginUrl,
  privateHandoffUrl,
}: {
  t: Translate;
  action: string;
  loginUrl: string;
  /** In a social app's in-app browser: the Private card opens the page in the device's browser instead. */
  privateHandoffUrl: string | null;
}) {
  return (
    <>
      <h1>{t('customerType.title')}</h1>
      <form method="post" action={action} className="card-grid">
        <CsrfField />
        {privateHandoffUrl ? (
          <a className="card" href={privateHandoffUrl} aria-describedby="handoff-hint">
            <span className="card__title">{t('customerType.private')}</span>
            <span className="card__text">{t('customerType.privateText')}</span>
            <span id="handoff-hint" className="card__note">
              {t('customerType.inAppBrowserHint')}
            </span>
          </a>
        ) : (
          <button type="submit" name="customerType" value="private" className="card">
            <span className="card__title">{t('customerType.private')}</span>
            <span className="card__text">{t('customerType.privateText')}</span>
          </button>
        )}
        {otherCards.map((c) => (
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

export interface AccountTypeCardView {
  type: ExternalAccountType;
  href: string;
  destination: 'form' | 'infoPage';
  prerequisite?: 'guardianSuitabilityAssessment';
}

/**
 * Business or minor account types of the market (identification-routing-creation §2): each card leaves the app for an external
 * form (the SE occupational pension for an information page). Back is in the header.
 */
export function AccountTypeListPage({
  t,
  applicant,
  cards,
  accountTypesUrl,
  depositGuaranteeUrl,
}: {
  t: Translate;
  applicant: ExternalApplicantType;
  cards: AccountTypeCardView[];
  accountTypesUrl: string;
  depositGuaranteeUrl: string;
}) {
  return (
    <>
      <h1>{t(`accountTypes.${applicant}.title`)}</h1>
      <p>{t(`accountTypes.${applicant}.intro`)}</p>
      <ul className="card-grid card-list">
        {cards.map((c) => (
          <li key={c.type}>
            <a className="card" href={c.href} aria-describedby={c.prerequisite ? `prerequisite-${c.type}` : undefined}>
              <span className="card__title">
                {t(`accountTypes.type.${c.type}`)}
                {accountBadge(c.type) && (
                  <>
                    {' '}
                    <span className="badge">{accountBadge(c.type)}</span>
                  </>
                )}
              </span>
              <span className="card__text">{t(c.destination === 'infoPage' ? 'accountTypes.readMore' : 'accountTypes.externalForm')}</span>
              {c.prerequisite && (
                <span id={`prerequisite-${c.type}`} className="card__note">
                  {t(`accountTypes.prerequisite.${c.prerequisite}`)}
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
      <ul className="link-list">
        <li>
          <a href={accountTypesUrl}>{t('accountTypes.readAboutAccountTypes')}</a>
        </li>
        <li>
          <a href={depositGuaranteeUrl}>{t('accountTypes.readAboutDepositGuarantee')}</a>
        </li>
      </ul>
    </>
  );
}
