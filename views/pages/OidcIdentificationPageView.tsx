// Identification pages of the countries that go through the OIDC broker (identification-routing-creation §2 "Identification screens"):
// the Danish MitID page (logo, secret-address banner with its drawer, continue, spinner), the Norwegian
// BankID page and the Finnish bank ID page, each with a footer holding the privacy and FAQ links.
import type { Translate } from '../../shared/i18n.ts';
import type { BrokerCountry } from '../../shared/oidcState.ts';
import { SecretAddressDrawer } from '../components/SecretAddressDrawer.tsx';
import { SubmitOnceForm } from '../components/SubmitOnceForm.tsx';

export interface OidcIdentificationPageProps {
  t: Translate;
  country: BrokerCountry;
  /** The continue form's action (stores the local marker, then redirects to the broker). */
  action: string;
  privacyUrl: string;
  faqUrl: string;
}

export function OidcIdentificationPage({ t, country, action, privacyUrl, faqUrl }: OidcIdentificationPageProps) {
  return (
    <section className={`eid eid--${country.toLowerCase()}`} aria-labelledby="eid-title">
      {/* The mark repeats the title's eID name, so it is decoration for screen readers. */}
      <p className="eid__logo" aria-hidden="true">
        {t(`oidc.${country}.logo`)}
      </p>
      <h1 id="eid-title">{t(`oidc.${country}.title`)}</h1>
      <p>{t(`oidc.${country}.intro`)}</p>
      {country === 'DK' && (
        <SecretAddressDrawer
          text={t('oidc.secretAddress.banner')}
          title={t('oidc.secretAddress.title')}
          body={t('oidc.secretAddress.text')}
          labels={{ seeMore: t('oidc.secretAddress.seeMore'), seeLess: t('oidc.secretAddress.seeLess') }}
        />
      )}
      <SubmitOnceForm action={action} className="oidc-continue" labels={{ submit: t('oidc.continue'), pending: t('oidc.redirecting') }} />
      <nav className="eid__footer" aria-label={t('oidc.footerLabel')}>
        <a href={privacyUrl}>{t('shell.footer.privacy')}</a>
        <a href={faqUrl}>{t('shell.footer.faq')}</a>
      </nav>
    </section>
  );
}
