// Contact information form (customer-information.md §2.3, §5 "Contact"), without React. The server renders the whole
// form (views/pages/ContactInformationStepView.tsx), so it posts and shows the server's errors without JavaScript; this
// script checks each field on blur and on submit with the same rules (shared/contactInformation.ts), clears a field's
// error while it is typed in, offers the 'Did you mean …?' suggestion as the e-mail is typed, blocks a submit while a
// field is invalid and disables Continue while the post is under way. The values are read from the form, so what was
// typed before the script ran counts. Plain DOM: the page is usable within 1.5 s on a phone (issue 23 item 5).
//
// The rules are loaded by dynamic imports once the page has loaded, off the page's critical path (issue 23
// item 4): the phone rules carry libphonenumber's metadata (about 136 KB raw), the e-mail rules a spelling
// checker. A blur or submit before they are there waits for them; until the e-mail rules are there, the
// suggestion shown is the server's for the e-mail it rendered.
import type { ContactError, ContactField, PhonePrefix } from '../../shared/contactInformation.ts';
import { afterPageLoad } from '../components/afterPageLoad.ts';
import { h, patchChildren } from '../components/dom.ts';

export interface ContactScriptProps {
  /** The server's errors, as message keys of `texts.errors`. */
  errors: Partial<Record<ContactField, ContactError>>;
  /** The server's 'Did you mean …?' suggestion for the e-mail it rendered, or null. */
  suggestion: string | null;
  texts: {
    /** The error summary's title (form.error.summary). */
    errorSummary: string;
    /** 'Did you mean {suggestion}?' split around the suggestion, so a button goes there. */
    suggestion: [string, string];
    errors: Record<ContactError, string>;
  };
}

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

const phoneError = ({ validatePhone }: Rules, prefix: PhonePrefix, phone: string): ContactError | undefined => {
  const result = validatePhone(prefix, phone);
  return result.ok ? undefined : result.error === 'missingPlus' ? 'phoneMissingPlus' : 'phone';
};
const emailError = ({ isValidEmail }: Rules, email: string): ContactError | undefined => (isValidEmail(email) ? undefined : 'email');

/** Sets or removes an attribute (null removes it). */
const attr = (el: Element, name: string, value: string | null) => (value === null ? el.removeAttribute(name) : el.setAttribute(name, value));

export default function enhanceContactInformation(el: HTMLElement, { errors: serverErrors, suggestion: serverSuggestion, texts }: ContactScriptProps): void {
  const form = el.querySelector('form');
  const prefix = form?.querySelector<HTMLSelectElement>('#contact-prefix');
  const phone = form?.querySelector<HTMLInputElement>('#contact-phone');
  const email = form?.querySelector<HTMLInputElement>('#contact-email');
  const shownFor = form?.querySelector<HTMLInputElement>('input[name="suggestionShownFor"]');
  const live = email?.parentElement?.querySelector(':scope > [aria-live]');
  if (!form || !prefix || !phone || !email || !shownFor || !live) return;
  const submitButtons = [...form.querySelectorAll<HTMLButtonElement>(':scope > button[type=submit]')];
  const continueButton = submitButtons.at(-1);
  // Before the rules are there, the server's suggestion holds for the e-mail it rendered, as does its suggestionShownFor.
  const renderedEmail = email.defaultValue;
  const renderedShownFor = shownFor.defaultValue;

  let errors: Partial<Record<ContactField, ContactError>> = { ...serverErrors };
  // The summary lists the errors the server found, and those found on Continue (not every blur's).
  let summaryShown = Object.keys(serverErrors).length > 0;
  let rules: Rules | null = null;

  /** A field's inline error above `before` (views/components/ErrorSummary.tsx FieldError), or none. */
  const showFieldError = (id: string, before: Element, message: string | null) => {
    const shown = document.getElementById(`${id}-error`);
    if (!message) shown?.remove();
    else if (shown) shown.textContent = message;
    else before.before(h('p', { id: `${id}-error`, className: 'field__error' }, message));
  };

  /** Brings the page to the values, the errors and the rules: inline errors, summary, suggestion. */
  const render = () => {
    const phoneMessage = errors.phone ? texts.errors[errors.phone] : null;
    const emailMessage = errors.email ? texts.errors[errors.email] : null;
    const suggestion = rules ? rules.suggestEmail(email.value) : email.value === renderedEmail ? serverSuggestion : null;
    // Once a suggestion has been on screen for this value, the server need not show it again after submit.
    shownFor.value = suggestion ? email.value : renderedShownFor;

    showFieldError('contact-phone', phone.parentElement ?? phone, phoneMessage);
    attr(phone, 'aria-invalid', phoneMessage ? 'true' : null);
    attr(phone, 'aria-describedby', phoneMessage ? 'contact-phone-error' : null);
    showFieldError('contact-email', email, emailMessage);
    attr(email, 'aria-invalid', emailMessage ? 'true' : null);
    attr(email, 'aria-describedby', contactDescribedBy(emailMessage !== null, suggestion !== null));

    const lines: [string, string][] = [
      ...(phoneMessage ? [['contact-phone', phoneMessage] as [string, string]] : []),
      ...(emailMessage ? [['contact-email', emailMessage] as [string, string]] : []),
    ];
    // The summary where the server puts it: after the hidden default button (views/components/ErrorSummary.tsx).
    const summary = form.querySelector(':scope > .error-summary');
    const items = lines.map(([id, message]) => h('li', {}, h('a', { href: `#${id}` }, message)));
    if (!summaryShown || lines.length === 0) summary?.remove();
    else if (summary?.querySelector('ul')) patchChildren(summary.querySelector('ul')!, items);
    else
      (form.querySelector(':scope > button[hidden]') ?? shownFor).after(
        h('div', { className: 'error-summary', role: 'alert' }, h('p', {}, texts.errorSummary), h('ul', {}, ...items)),
      );

    // Kept in place while it stays the same, so the live region announces only a change.
    const button =
      suggestion && h('button', { type: 'submit', formnovalidate: '', name: 'useSuggestion', value: suggestion, className: 'link-button' }, suggestion);
    patchChildren(live, [suggestion && h('p', { id: 'contact-email-suggestion', className: 'field__hint' }, texts.suggestion[0], button, texts.suggestion[1])]);
  };

  const setError = (field: ContactField, error: ContactError | undefined) => {
    const { [field]: _cleared, ...rest } = errors;
    errors = error ? { ...rest, [field]: error } : rest;
    render();
  };
  /** Runs `check` with the rules as soon as they are there (a failed load leaves the checking to the server). */
  const withRules = (check: (loaded: Rules) => void) => {
    if (rules) check(rules);
    else loadRules().then(check, () => undefined);
  };

  /** Shows what is wrong and focuses the first wrong field, or answers true when both fields are fine. */
  const checkBeforePost = (loaded: Rules): boolean => {
    const found = { phone: phoneError(loaded, prefix.value as PhonePrefix, phone.value), email: emailError(loaded, email.value) };
    if (!found.phone && !found.email) return true;
    errors = { ...(found.phone ? { phone: found.phone } : {}), ...(found.email ? { email: found.email } : {}) };
    summaryShown = true;
    render();
    (found.phone ? phone : email).focus();
    return false;
  };
  const posting = (busy = true) => {
    for (const button of submitButtons) button.disabled = busy;
    if (busy) continueButton?.setAttribute('aria-busy', 'true');
    else continueButton?.removeAttribute('aria-busy');
  };
  // Back to this page from the browser's back/forward cache: the post went, the page is as it was left, so it posts again.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) posting(false);
  });

  prefix.addEventListener('change', () => setError('phone', undefined));
  phone.addEventListener('input', () => setError('phone', undefined));
  // customer-information §5: the e-mail error clears when the user types.
  email.addEventListener('input', () => setError('email', undefined));
  phone.addEventListener('blur', () => withRules((loaded) => setError('phone', phoneError(loaded, prefix.value as PhonePrefix, phone.value))));
  email.addEventListener('blur', () => withRules((loaded) => setError('email', emailError(loaded, email.value))));
  live.addEventListener('click', (e) => {
    // Without JS the suggestion posts (the server takes it); here it fills the field.
    const chosen = e.target instanceof Element ? e.target.closest<HTMLButtonElement>('button[name="useSuggestion"]') : null;
    if (!chosen) return;
    e.preventDefault();
    email.value = chosen.value;
    setError('email', undefined);
    email.focus();
  });

  form.addEventListener('submit', (e) => {
    if (!rules) {
      // The rules are still on their way: post once they have judged (submit() fires no submit event).
      e.preventDefault();
      loadRules().then(
        (loaded) => {
          rules = loaded;
          if (!checkBeforePost(loaded)) return;
          posting();
          form.submit();
        },
        () => form.submit(),
      );
      return;
    }
    if (!checkBeforePost(rules)) {
      e.preventDefault();
      return;
    }
    posting();
  });

  loadRules().then(
    (loaded) => {
      rules = loaded;
      render();
    },
    () => undefined,
  );
  render();
}
