// The contact information form (customer-information.md §2.3, §5 "Contact"): the contactInformation island
// (views/pages/ContactInformationStepView.tsx). Without JavaScript it posts and shows the server's errors and its 'Did
// you mean …?' suggestion as a button. Hydrated, each field is checked on blur and on submit with the server's rules
// (shared/contactInformation.ts), imported once the page has loaded (libphonenumber's metadata is about 136 KB raw); a
// blur or submit before they are there waits for them. More: docs/islands.md.
import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import type { ContactError, ContactField, PhonePrefix } from '../../shared/contactInformation.ts';
import { afterPageLoad } from '../../client/components/afterPageLoad.ts';
import { describedBy, ErrorSummary, FieldError } from './ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

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
  texts: {
    phoneLabel: string;
    prefixLabel: string;
    emailLabel: string;
    continue: string;
    /** The error summary's title (form.error.summary). */
    errorSummary: string;
    /** 'Did you mean {suggestion}?' split around the suggestion, so a button goes there. */
    suggestion: [string, string];
    errors: Record<ContactError, string>;
  };
}

type Values = ContactFormProps['values'];
type Errors = ContactFormProps['errors'];

/** The e-mail input's aria-describedby: its error and its suggestion, as far as they are shown (null: none). */
export const contactDescribedBy = (error: boolean, suggestion: boolean): string | null =>
  [error ? 'contact-email-error' : '', suggestion ? 'contact-email-suggestion' : ''].filter(Boolean).join(' ') || null;

type Rules = Pick<typeof import('../../shared/contactInformation.ts'), 'validatePhone'> &
  Pick<typeof import('../../shared/emailAddress.ts'), 'isValidEmail' | 'suggestEmail'>;
let rulesLoading: Promise<Rules> | null = null;
/** The phone and e-mail rules, imported once per page. */
const loadRules = (): Promise<Rules> =>
  (rulesLoading ??= afterPageLoad(() => Promise.all([import('../../shared/contactInformation.ts'), import('../../shared/emailAddress.ts')])).then(
    ([phone, email]) => ({
      validatePhone: phone.validatePhone,
      isValidEmail: email.isValidEmail,
      suggestEmail: email.suggestEmail,
    }),
  ));

const phoneError = ({ validatePhone }: Rules, { prefix, phone }: Values): ContactError | undefined => {
  const result = validatePhone(prefix, phone);
  return result.ok ? undefined : result.error === 'missingPlus' ? 'phoneMissingPlus' : 'phone';
};
const emailError = ({ isValidEmail }: Rules, { email }: Values): ContactError | undefined => (isValidEmail(email) ? undefined : 'email');

const withError = (errors: Errors, field: ContactField, error: ContactError | undefined): Errors => {
  const { [field]: _cleared, ...rest } = errors;
  return error ? { ...rest, [field]: error } : rest;
};

export function ContactInformationForm(props: ContactFormProps) {
  const { texts } = props;
  const form = useRef<HTMLFormElement>(null);
  const phoneInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState(props.values);
  const [errors, setErrors] = useState(props.errors);
  // The summary lists the errors the server found, and those found on Continue (not every blur's).
  const [summaryShown, setSummaryShown] = useState(Object.keys(props.errors).length > 0);
  const [rules, setRules] = useState<Rules | null>(null);
  const [posting, setPosting] = useState(false);

  useEffect(() => {
    // What was typed before the island hydrated counts: the form holds it.
    if (form.current) {
      const data = new FormData(form.current);
      const typed = (name: string, shown: string) => String(data.get(name) ?? shown);
      setValues((shown) => ({
        prefix: typed('phonePrefix', shown.prefix) as PhonePrefix,
        phone: typed('phone', shown.phone),
        email: typed('email', shown.email),
      }));
    }
    // A failed load leaves the checking to the server.
    loadRules().then(setRules, () => undefined);
    // Back to this page from the browser's back/forward cache: the post went, the page is as it was left, so it posts again.
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) setPosting(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  // Before the rules are there, the server's suggestion holds for the e-mail it rendered.
  const suggestion = rules ? rules.suggestEmail(values.email) : values.email === props.values.email ? props.suggestion : null;
  const phoneMessage = errors.phone ? texts.errors[errors.phone] : null;
  const emailMessage = errors.email ? texts.errors[errors.email] : null;
  const summary = summaryShown
    ? [...(phoneMessage ? [['contact-phone', phoneMessage] as const] : []), ...(emailMessage ? [['contact-email', emailMessage] as const] : [])]
    : [];

  const type = (field: keyof Values, value: string) => {
    setValues((shown) => ({ ...shown, [field]: value }));
    // customer-information §5: an error clears when the user types.
    setErrors((shown) => withError(shown, field === 'email' ? 'email' : 'phone', undefined));
  };
  /** Runs `check` with the rules as soon as they are there (a failed load leaves the checking to the server). */
  const withRules = (check: (loaded: Rules) => void) => {
    if (rules) check(rules);
    else loadRules().then(check, () => undefined);
  };
  /** Shows what is wrong and focuses the first wrong field, or answers true when both fields are fine. */
  const checkBeforePost = (loaded: Rules): boolean => {
    const found = { phone: phoneError(loaded, values), email: emailError(loaded, values) };
    if (!found.phone && !found.email) return true;
    setErrors({ ...(found.phone ? { phone: found.phone } : {}), ...(found.email ? { email: found.email } : {}) });
    setSummaryShown(true);
    (found.phone ? phoneInput : emailInput).current?.focus();
    return false;
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const el = e.currentTarget;
    if (!rules) {
      // The rules are still on their way: post once they have judged (submit() fires no submit event).
      e.preventDefault();
      loadRules().then(
        (loaded) => {
          setRules(loaded);
          if (!checkBeforePost(loaded)) return;
          setPosting(true);
          el.submit();
        },
        () => el.submit(),
      );
      return;
    }
    if (!checkBeforePost(rules)) {
      e.preventDefault();
      return;
    }
    setPosting(true);
  };

  return (
    <form ref={form} method="post" action={props.action} noValidate className="contact-form" onSubmit={onSubmit}>
      <ScreenFields fields={props.screenFields} />
      {/* Once a suggestion has been on screen for this value, the server need not show it again after submit. */}
      <input type="hidden" name="suggestionShownFor" value={suggestion ? values.email : props.suggestionShownFor} />
      {/* The form's default button (the first submit button), so Enter in a field means Continue even while
          the suggestion button, which comes before Continue, is shown. Hidden from everyone: Continue below is
          the one to see and reach. (The suggestion used to post through a separate hidden form without a submit
          button of its own, which HTML_CodeSniffer reports.) */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" disabled={posting} />
      <ErrorSummary title={texts.errorSummary} errors={summary} />
      <PhoneField
        ref={phoneInput}
        texts={texts}
        prefixes={props.prefixes}
        values={values}
        message={phoneMessage}
        onType={type}
        onBlur={(phone) => {
          const typed = { ...values, phone };
          withRules((loaded) => setErrors((shown) => withError(shown, 'phone', phoneError(loaded, typed))));
        }}
      />
      <EmailField
        ref={emailInput}
        texts={texts}
        email={values.email}
        message={emailMessage}
        suggestion={suggestion}
        onType={(email) => type('email', email)}
        onBlur={(email) => {
          const typed = { ...values, email };
          withRules((loaded) => setErrors((shown) => withError(shown, 'email', emailError(loaded, typed))));
        }}
        onSuggestion={(chosen) => {
          type('email', chosen);
          emailInput.current?.focus();
        }}
      />
      <button type="submit" className="btn" disabled={posting} aria-busy={posting || undefined}>
        {texts.continue}
      </button>
    </form>
  );
}

/** The phone number and its country prefix; the number's error shows above both. */
function PhoneField({
  ref,
  texts,
  prefixes,
  values,
  message,
  onType,
  onBlur,
}: {
  ref: Ref<HTMLInputElement>;
  texts: ContactFormProps['texts'];
  prefixes: ContactFormProps['prefixes'];
  values: Values;
  message: string | null;
  onType: (field: 'prefix' | 'phone', value: string) => void;
  onBlur: (phone: string) => void;
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
          value={values.prefix}
          onChange={(e) => onType('prefix', e.currentTarget.value)}
        >
          {prefixes.map((p) => (
            <option key={p.prefix} value={p.prefix}>
              {p.label}
            </option>
          ))}
        </select>
        <input
          ref={ref}
          id="contact-phone"
          name="phone"
          // The number without its prefix (the select holds that): tel-national, whose autofill group is
          // Text, so a text input with the phone keypad; type=tel allows only "tel" (WHATWG HTML, autofill
          // field names; the Nu HTML Checker refuses tel-national there).
          type="text"
          inputMode="tel"
          autoComplete="tel-national"
          value={values.phone}
          onChange={(e) => onType('phone', e.currentTarget.value)}
          onBlur={(e) => onBlur(e.currentTarget.value)}
          {...describedBy('contact-phone', message)}
        />
      </div>
    </div>
  );
}

/** The e-mail address, with the 'Did you mean …?' suggestion below it while there is one. */
function EmailField({
  ref,
  texts,
  email,
  message,
  suggestion,
  onType,
  onBlur,
  onSuggestion,
}: {
  ref: Ref<HTMLInputElement>;
  texts: ContactFormProps['texts'];
  email: string;
  message: string | null;
  suggestion: string | null;
  onType: (email: string) => void;
  onBlur: (email: string) => void;
  onSuggestion: (suggestion: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="contact-email">{texts.emailLabel}</label>
      <FieldError id="contact-email" error={message} />
      <input
        ref={ref}
        id="contact-email"
        name="email"
        type="email"
        autoComplete="email"
        spellCheck={false}
        value={email}
        onChange={(e) => onType(e.currentTarget.value)}
        onBlur={(e) => onBlur(e.currentTarget.value)}
        aria-invalid={message ? true : undefined}
        aria-describedby={contactDescribedBy(message !== null, suggestion !== null) ?? undefined}
      />
      {/* Always present, so screen readers announce a suggestion as it appears. */}
      <div aria-live="polite">
        {suggestion && (
          <p id="contact-email-suggestion" className="field__hint">
            {texts.suggestion[0]}
            {/* Without JS it posts the suggestion (the server takes it and shows the form again); with JS it fills the
                field instead. */}
            <button
              type="submit"
              formNoValidate
              name="useSuggestion"
              value={suggestion}
              className="link-button"
              onClick={(e) => {
                e.preventDefault();
                onSuggestion(suggestion);
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
