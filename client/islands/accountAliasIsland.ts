// Account alias form (customer-information.md §2.3, §5), without React. The server renders it
// (views/pages/AccountAliasStepView.tsx) and it works as a plain form post; this script checks each name when its
// input is left (same rules as the server, shared/accountAlias.ts), gives a cleared input its default name back, and
// on Continue with a name that breaks the rules posts nothing: the names are checked at once, and the linked error
// summary shows and takes focus, as the server's would (issue 18; Skip posts as it is, the server keeps the default
// names). Plain DOM: the page is usable within 1.5 s on a phone (issue 23 item 5).
import { aliasErrorKey, validateAlias } from '../../shared/accountAlias.ts';
import { h } from '../components/dom.ts';

export interface AccountAliasScriptField {
  account: string;
  /** The input's name. */
  name: string;
  defaultName: string;
}

export interface AccountAliasScriptProps {
  fields: AccountAliasScriptField[];
  /** The translated texts: the summary's title (form.error.summary) and each error key's message. */
  labels: { errorSummary: string; errors: Record<string, string> };
}

/** The input's id, as the view gives it (the summary links to it). */
export const aliasInputId = (account: string) => `alias-${account}`;

/** Shows or clears a field's inline error the way views/components/ErrorSummary.tsx Field renders it. */
function showError(input: HTMLInputElement, error: string | null): void {
  const id = `${input.id}-error`;
  const shown = document.getElementById(id);
  if (!error) {
    shown?.remove();
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    return;
  }
  if (shown) shown.textContent = error;
  else input.before(h('p', { id, className: 'field__error' }, error));
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', id);
}

export default function enhanceAccountAlias(el: HTMLElement, { fields, labels }: AccountAliasScriptProps): void {
  const form = el.querySelector('form');
  if (!form) return;
  const inputs = fields.flatMap((f) => {
    const input = document.getElementById(aliasInputId(f.account));
    return input instanceof HTMLInputElement && form.contains(input) ? [{ f, input }] : [];
  });

  /** The field's value as it will be posted (customer-information §5: a cleared input restores the default name) and its error. */
  const check = ({ f, input }: (typeof inputs)[number]): string | null => {
    if (input.value === '') input.value = f.defaultName;
    const error = validateAlias(input.value);
    const message = error && (labels.errors[aliasErrorKey(error)] ?? null);
    showError(input, message);
    return message;
  };

  for (const field of inputs) {
    // Typing clears the field's error until it is checked again.
    field.input.addEventListener('input', () => showError(field.input, null));
    field.input.addEventListener('blur', (e) => {
      // Leaving for Continue or Skip: the submit checks every name. An error shown now would move the button away
      // under the pointer between press and release, and the click would be lost (issue 18: no summary, focus left
      // on the button).
      const to = e.relatedTarget;
      if (to instanceof HTMLButtonElement && to.form === form) return;
      check(field);
    });
  }

  form.addEventListener('submit', (e) => {
    if (e.submitter instanceof HTMLButtonElement && e.submitter.value === 'skip') return;
    const found = inputs.flatMap((field) => {
      const error = check(field);
      return error ? [[field.input.id, error] as const] : [];
    });
    if (found.length === 0) return;
    e.preventDefault();
    // The summary: the server's errors until Continue finds some here, then those (views/components/ErrorSummary.tsx).
    const summary = h(
      'div',
      { className: 'error-summary', role: 'alert', tabindex: '-1' },
      h('p', {}, labels.errorSummary),
      h('ul', {}, ...found.map(([id, message]) => h('li', {}, h('a', { href: `#${id}` }, message)))),
    );
    const shown = form.querySelector(':scope > .error-summary');
    if (shown) shown.replaceWith(summary);
    else (form.querySelector(':scope > h1') ?? form.firstChild)?.after(summary);
    summary.focus();
  });
}
