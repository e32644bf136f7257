// Contact information form (customer-information.md §2.3, §5 "Contact"). The server renders the whole
// form, so it posts and shows the server's errors without JavaScript; in the browser this island checks
// each field on blur and on submit with the same rules (shared/contactInformation.ts), clears a field's
// error while it is typed in, offers the 'Did you mean …?' suggestion as the e-mail is typed, blocks a
// submit while a field is invalid and disables Continue while the post is under way.
import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { isValidEmail, suggestEmail, validatePhone, type ContactError, type ContactField, type PhonePrefix } from '../../shared/contactInformation.ts';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';
import { describedBy, ErrorSummary, FieldError } from '../../views/components/ErrorSummary.tsx';

export interface ContactFormProps {
  action: string;
  /** The hidden step and screen the forms answer. */
  screenFields: ScreenFieldValues;
  values: { prefix: PhonePrefix; phone: string; email: string };
  /** Server-side errors, as message keys of `texts.errors`. */
  errors: Partial<Record<ContactField, ContactError>>;
  /** The e-mail the suggestion was last shown for (posted back, so the server shows it only once). */
  suggestionShownFor: string;
  prefixes: { prefix: PhonePrefix; label: string }[];
  texts: {
    phoneLabel: string;
    prefixLabel: string;
    emailLabel: string;
    continue: string;
    /** The error summary's title (form.error.summary). */
    errorSummary: string;
    /** 'Did you mean {suggestion}?' split around the suggestion, so the island can put a button there. */
    suggestion: [string, string];
    errors: Record<ContactError, string>;
  };
}

const phoneError = (prefix: PhonePrefix, phone: string): ContactError | undefined => {
  const result = validatePhone(prefix, phone);
  return result.ok ? undefined : result.error === 'missingPlus' ? 'phoneMissingPlus' : 'phone';
};
const emailError = (email: string): ContactError | undefined => (isValidEmail(email) ? undefined : 'email');

/** The phone number and its country prefix; the number's error shows above both. */
function PhoneField({
  prefixes,
  texts,
  prefix,
  phone,
  message,
  phoneInputRef,
  onPrefixChange,
  onPhoneChange,
  onPhoneBlur,
}: {
  prefixes: ContactFormProps['prefixes'];
  texts: ContactFormProps['texts'];
  prefix: PhonePrefix;
  phone: string;
  message: string | null;
  phoneInputRef: RefObject<HTMLInputElement | null>;
  onPrefixChange: (prefix: PhonePrefix) => void;
  onPhoneChange: (phone: string) => void;
  onPhoneBlur: () => void;
}) {
  return (
    <div className="field contact-phone">
      <label htmlFor="contact-phone">{texts.phoneLabel}</label>
      <FieldError id="contact-phone" error={message} />
      <div className="contact-phone__row">
        <label className="visually-hidden" htmlFor="contact-prefix">
          {texts.prefixLabel}
        </label>
        <select
          id="contact-prefix"
          name="phonePrefix"
          autoComplete="tel-country-code"
          value={prefix}
          onChange={(e) => onPrefixChange(e.target.value as PhonePrefix)}
        >
          {prefixes.map((p) => (
            <option key={p.prefix} value={p.prefix}>
              {p.label}
            </option>
          ))}
        </select>
        <input
          ref={phoneInputRef}
          id="contact-phone"
          name="phone"
          // The number without its prefix (the select holds that): tel-national, whose autofill group is
          // Text, so a text input with the phone keypad; type=tel allows only "tel" (WHATWG HTML, autofill
          // field names; the Nu HTML Checker refuses tel-national there, issue 18).
          type="text"
          inputMode="tel"
          autoComplete="tel-national"
          value={phone}
          {...describedBy('contact-phone', message)}
          onChange={(e) => onPhoneChange(e.target.value)}
          onBlur={onPhoneBlur}
        />
      </div>
    </div>
  );
}

/** The e-mail address, with the 'Did you mean …?' suggestion below it while there is one. */
function EmailField({
  texts,
  email,
  message,
  suggestion,
  emailInputRef,
  onEmailChange,
  onEmailBlur,
  onUseSuggestion,
}: {
  texts: ContactFormProps['texts'];
  email: string;
  message: string | null;
  suggestion: string | null;
  emailInputRef: RefObject<HTMLInputElement | null>;
  onEmailChange: (email: string) => void;
  onEmailBlur: () => void;
  onUseSuggestion: (suggestion: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="contact-email">{texts.emailLabel}</label>
      <FieldError id="contact-email" error={message} />
      <input
        ref={emailInputRef}
        id="contact-email"
        name="email"
        type="email"
        autoComplete="email"
        spellCheck={false}
        value={email}
        aria-invalid={message ? true : undefined}
        aria-describedby={[message ? 'contact-email-error' : '', suggestion ? 'contact-email-suggestion' : ''].filter(Boolean).join(' ') || undefined}
        onChange={(e) => onEmailChange(e.target.value)}
        onBlur={onEmailBlur}
      />
      {/* Always present, so screen readers announce a suggestion as it appears. */}
      <div aria-live="polite">
        {suggestion && (
          <p id="contact-email-suggestion" className="field__hint">
            {texts.suggestion[0]}
            {/* Without JS it posts the suggestion (the server takes it and shows the form again); here it
              fills the field. */}
            <button
              type="submit"
              formNoValidate
              name="useSuggestion"
              value={suggestion}
              className="link-button"
              onClick={(e) => {
                e.preventDefault();
                onUseSuggestion(suggestion);
              }}
            >
              {suggestion}
            </button>
            {texts.suggestion[1]}
          </p>
        )}
      </div>
    </div>
  );
}

export default function ContactInformationForm(props: ContactFormProps) {
  const { texts } = props;
  const [prefix, setPrefix] = useState<PhonePrefix>(props.values.prefix);
  const [phone, setPhone] = useState(props.values.phone);
  const [email, setEmail] = useState(props.values.email);
  const [errors, setErrors] = useState(props.errors);
  // The summary lists the errors the server found, and those found on Continue (not every blur's).
  const [summaryShown, setSummaryShown] = useState(Object.keys(props.errors).length > 0);
  const [loading, setLoading] = useState(false);
  const phoneInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);

  const suggestion = suggestEmail(email);
  // Once a suggestion has been on screen for this value, the server need not show it again after submit.
  const suggestionShownFor = suggestion ? email : props.suggestionShownFor;

  const setError = (field: ContactField, error: ContactError | undefined) =>
    setErrors((current) => {
      const next = { ...current };
      if (error) next[field] = error;
      else delete next[field];
      return next;
    });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const found = { phone: phoneError(prefix, phone), email: emailError(email) };
    if (found.phone || found.email) {
      event.preventDefault();
      setErrors({ ...(found.phone ? { phone: found.phone } : {}), ...(found.email ? { email: found.email } : {}) });
      setSummaryShown(true);
      (found.phone ? phoneInput : emailInput).current?.focus();
      return;
    }
    setLoading(true);
  };

  const phoneMessage = errors.phone ? texts.errors[errors.phone] : null;
  const emailMessage = errors.email ? texts.errors[errors.email] : null;

  return (
    <>
      <form method="post" action={props.action} noValidate onSubmit={onSubmit} className="contact-form">
        <ScreenFields fields={props.screenFields} />
        <input type="hidden" name="suggestionShownFor" value={suggestionShownFor} />
        {/* The form's default button (the first submit button), so Enter in a field means Continue even while
            the suggestion button, which comes before Continue, is shown. Hidden from everyone: Continue below is
            the one to see and reach. (Issue 18: the suggestion used to post through a separate hidden form
            without a submit button of its own, which HTML_CodeSniffer reports.) */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" disabled={loading} />
        {summaryShown && (
          <ErrorSummary
            title={texts.errorSummary}
            errors={[...(phoneMessage ? [['contact-phone', phoneMessage] as const] : []), ...(emailMessage ? [['contact-email', emailMessage] as const] : [])]}
          />
        )}
        <PhoneField
          prefixes={props.prefixes}
          texts={texts}
          prefix={prefix}
          phone={phone}
          message={phoneMessage}
          phoneInputRef={phoneInput}
          onPrefixChange={(next) => {
            setPrefix(next);
            setError('phone', undefined);
          }}
          onPhoneChange={(next) => {
            setPhone(next);
            setError('phone', undefined);
          }}
          onPhoneBlur={() => setError('phone', phoneError(prefix, phone))}
        />
        <EmailField
          texts={texts}
          email={email}
          message={emailMessage}
          suggestion={suggestion}
          emailInputRef={emailInput}
          onEmailChange={(next) => {
            // customer-information §5: the e-mail error clears when the user types.
            setEmail(next);
            setError('email', undefined);
          }}
          onEmailBlur={() => setError('email', emailError(email))}
          onUseSuggestion={(chosen) => {
            setEmail(chosen);
            setError('email', undefined);
            emailInput.current?.focus();
          }}
        />
        <button type="submit" className="btn" disabled={loading} aria-busy={loading || undefined}>
          {texts.continue}
        </button>
      </form>
    </>
  );
}
