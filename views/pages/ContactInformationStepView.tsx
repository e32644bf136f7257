// Contact information step (customer-information.md §2.3): title, the registered-address card (only when
// the population register has an address), the phone and e-mail form and the personal-data link. The form is a plain
// post that the server checks (customer-information §5 "Contact"); the contactInformation script
// (client/islands/contactInformationIsland.ts) enhances it in the browser, without React (issue 23 item 5).
import type { Translate } from '../../shared/i18n.ts';
import type { ContactRelatedData } from '../../shared/contracts/brokerageContract.ts';
import type { ContactError, ContactField, PhonePrefix } from '../../shared/contactInformation.ts';
import { Island } from '../components/Island.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { describedBy, ErrorSummary, FieldError } from '../components/ErrorSummary.tsx';
import { contactDescribedBy, type ContactScriptProps } from '../../client/islands/contactInformationIsland.ts';

export interface ContactFormProps {
  action: string;
  /** The hidden step and screen the forms answer. */
  screenFields: ScreenFieldValues;
  values: { prefix: PhonePrefix; phone: string; email: string };
  /** The 'Did you mean …?' suggestion for values.email (shared/emailAddress.ts suggestEmail), or null. */
  suggestion: string | null;
  /** Server-side errors, as message keys of `texts.errors`. */
  errors: Partial<Record<ContactField, ContactError>>;
  /** The e-mail the suggestion was last shown for (posted back, so the server shows it only once). */
  suggestionShownFor: string;
  prefixes: { prefix: PhonePrefix; label: string }[];
  texts: ContactScriptProps['texts'] & { phoneLabel: string; prefixLabel: string; emailLabel: string; continue: string };
}

/** The form as the server renders it: the values, the server's errors and suggestion; the script takes it from there. */
export function ContactInformationForm(props: ContactFormProps) {
  const { texts, values, suggestion } = props;
  const phoneMessage = props.errors.phone ? texts.errors[props.errors.phone] : null;
  const emailMessage = props.errors.email ? texts.errors[props.errors.email] : null;
  const script: ContactScriptProps = {
    errors: props.errors,
    suggestion,
    texts: { errorSummary: texts.errorSummary, suggestion: texts.suggestion, errors: texts.errors },
  };
  const emailDescribed = contactDescribedBy(emailMessage !== null, suggestion !== null);
  return (
    <Island name="contactInformation" props={script}>
      <form method="post" action={props.action} noValidate className="contact-form">
        <ScreenFields fields={props.screenFields} />
        <input type="hidden" name="suggestionShownFor" value={props.suggestionShownFor} />
        {/* The form's default button (the first submit button), so Enter in a field means Continue even while
            the suggestion button, which comes before Continue, is shown. Hidden from everyone: Continue below is
            the one to see and reach. (Issue 18: the suggestion used to post through a separate hidden form
            without a submit button of its own, which HTML_CodeSniffer reports.) */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        <ErrorSummary
          title={texts.errorSummary}
          errors={[...(phoneMessage ? [['contact-phone', phoneMessage] as const] : []), ...(emailMessage ? [['contact-email', emailMessage] as const] : [])]}
        />
        {/* The phone number and its country prefix; the number's error shows above both. */}
        <div className="field contact-phone">
          <label htmlFor="contact-phone">{texts.phoneLabel}</label>
          <FieldError id="contact-phone" error={phoneMessage} />
          <div className="contact-phone__row">
            <label className="visually-hidden" htmlFor="contact-prefix">
              {texts.prefixLabel}
            </label>
            <select id="contact-prefix" name="phonePrefix" autoComplete="tel-country-code" defaultValue={values.prefix}>
              {props.prefixes.map((p) => (
                <option key={p.prefix} value={p.prefix}>
                  {p.label}
                </option>
              ))}
            </select>
            <input
              id="contact-phone"
              name="phone"
              // The number without its prefix (the select holds that): tel-national, whose autofill group is
              // Text, so a text input with the phone keypad; type=tel allows only "tel" (WHATWG HTML, autofill
              // field names; the Nu HTML Checker refuses tel-national there, issue 18).
              type="text"
              inputMode="tel"
              autoComplete="tel-national"
              defaultValue={values.phone}
              {...describedBy('contact-phone', phoneMessage)}
            />
          </div>
        </div>
        {/* The e-mail address, with the 'Did you mean …?' suggestion below it while there is one. */}
        <div className="field">
          <label htmlFor="contact-email">{texts.emailLabel}</label>
          <FieldError id="contact-email" error={emailMessage} />
          <input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            spellCheck={false}
            defaultValue={values.email}
            aria-invalid={emailMessage ? true : undefined}
            aria-describedby={emailDescribed ?? undefined}
          />
          {/* Always present, so screen readers announce a suggestion as it appears. */}
          <div aria-live="polite">
            {suggestion && (
              <p id="contact-email-suggestion" className="field__hint">
                {texts.suggestion[0]}
                {/* Without JS it posts the suggestion (the server takes it and shows the form again); the script
                    fills the field with it instead. */}
                <button type="submit" formNoValidate name="useSuggestion" value={suggestion} className="link-button">
                  {suggestion}
                </button>
                {texts.suggestion[1]}
              </p>
            )}
          </div>
        </div>
        <button type="submit" className="btn">
          {texts.continue}
        </button>
      </form>
    </Island>
  );
}

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
      <ContactInformationForm {...form} />
      <p>
        <a href={privacyUrl}>{t('contactInformation.personalData')}</a>
      </p>
    </section>
  );
}
