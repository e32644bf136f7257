// Contact information step (customer-information.md §2.3): title, the registered-address card (only when
// the population register has an address), the phone and e-mail form and the personal-data link. The form is a plain
// post that the server checks (customer-information §5 "Contact"), and the contactInformation island
// (views/components/ContactInformationForm.tsx) that checks it as it is filled in with JavaScript.
import type { Translate } from '../../shared/i18n.ts';
import type { ContactRelatedData } from '../../shared/contracts/brokerageContract.ts';
import { Island } from '../components/Island.tsx';
import { ContactInformationForm, type ContactFormProps } from '../components/ContactInformationForm.tsx';

export interface ContactInformationStepProps {
  t: Translate;
  form: ContactFormProps;
  registered: ContactRelatedData | null;
  authority: { name: string; url: string };
  privacyUrl: string;
}

export function ContactInformationStep({ t, form, registered, authority, privacyUrl }: ContactInformationStepProps) {
  const hasAddress = Boolean(registered?.address);
  return (
    <section className="contact-information" aria-labelledby="contact-title">
      <h1 id="contact-title">{t('contactInformation.title')}</h1>
      {hasAddress && registered && (
        <section className="panel contact-address" aria-labelledby="contact-address-title">
          <h2 id="contact-address-title">{t('contactInformation.address.title')}</h2>
          <dl className="contact-address__list">
            <dt>{t('contactInformation.address.address')}</dt>
            <dd>{registered.address}</dd>
            {registered.zipCode && (
              <>
                <dt>{t('contactInformation.address.zipCode')}</dt>
                <dd>{registered.zipCode}</dd>
              </>
            )}
            {registered.city && (
              <>
                <dt>{t('contactInformation.address.city')}</dt>
                <dd>{registered.city}</dd>
              </>
            )}
          </dl>
          <p className="field__hint">{t('contactInformation.address.note', { authority: authority.name })}</p>
          <p>
            <a href={authority.url} rel="noopener noreferrer">
              {t('contactInformation.address.link', { authority: authority.name })}
            </a>
          </p>
        </section>
      )}
      <Island name="contactInformation" component={ContactInformationForm} props={form} />
      <p>
        <a href={privacyUrl}>{t('contactInformation.personalData')}</a>
      </p>
    </section>
  );
}
