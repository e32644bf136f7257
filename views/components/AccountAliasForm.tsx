// The account alias form (customer-information.md §2.3 'Name your accounts', §5): the accountAlias island, rendered
// by the server (views/pages/AccountAliasStepView.tsx) and hydrated in the browser. Without JavaScript a plain form post
// that the server checks. Hydrated, each name is checked when its input is left (shared/accountAlias.ts), and Continue
// with a name that breaks the rules posts nothing and shows the linked error summary, as the server's would.
import { useEffect, useRef, useState, type FocusEvent, type FormEvent } from 'react';
import { aliasErrorKey, validateAlias } from '../../shared/accountAlias.ts';
import { ErrorSummary, Field, type SummaryLine } from './ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

export interface AccountAliasField {
  account: string;
  /** The input's name. */
  name: string;
  label: string;
  value: string;
  defaultName: string;
  /** The server's error text, shown until the field is edited. */
  error: string | null;
}

export interface AccountAliasProps {
  action: string;
  screenFields: ScreenFieldValues;
  fields: AccountAliasField[];
  /** The brokerage's refusal of the names, as the summary's first line. */
  apiError: string | null;
  texts: {
    title: string;
    continue: string;
    skip: string;
    /** The error summary's title (form.error.summary). */
    errorSummary: string;
    /** Each error key's message (shared/accountAlias.ts aliasErrorKey). */
    errors: Record<string, string>;
  };
}

/** The input's id (the summary links to it). */
export const aliasInputId = (account: string) => `alias-${account}`;

export function AccountAlias({ action, screenFields, fields, apiError, texts }: AccountAliasProps) {
  const form = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.value])));
  const [errors, setErrors] = useState<Record<string, string | null>>(() => Object.fromEntries(fields.map((f) => [f.name, f.error])));
  // The summary: the server's errors until Continue finds some here, then those.
  const [summary, setSummary] = useState<SummaryLine[]>(() => [
    ...(apiError ? [[null, apiError] as const] : []),
    ...fields.flatMap((f) => (f.error ? [[aliasInputId(f.account), f.error] as const] : [])),
  ]);
  /** Counts the Continues refused here: each moves the focus to the summary once it shows. */
  const [refused, setRefused] = useState(0);

  // What was typed before the island hydrated counts: the form holds it.
  useEffect(() => {
    if (!form.current) return;
    const data = new FormData(form.current);
    setValues((shown) => Object.fromEntries(Object.keys(shown).map((name) => [name, String(data.get(name) ?? shown[name])])));
  }, []);
  useEffect(() => {
    if (refused > 0) summaryRef.current?.focus();
  }, [refused]);

  /** The field's value as it will be posted (customer-information §5: a cleared input restores the default name) and its message. */
  const check = (f: AccountAliasField, typed: string): { value: string; message: string | null } => {
    const value = typed === '' ? f.defaultName : typed;
    const error = validateAlias(value);
    return { value, message: error && (texts.errors[aliasErrorKey(error)] ?? null) };
  };
  const onBlur = (f: AccountAliasField, e: FocusEvent<HTMLInputElement>) => {
    // Leaving for Continue or Skip: the submit checks every name. An error shown now would move the button away
    // under the pointer between press and release, and the click would be lost.
    const to = e.relatedTarget;
    if (to instanceof HTMLButtonElement && to.form === form.current) return;
    const { value, message } = check(f, e.currentTarget.value);
    setValues((shown) => ({ ...shown, [f.name]: value }));
    setErrors((shown) => ({ ...shown, [f.name]: message }));
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.value === 'skip') return;
    const checked = fields.map((f) => ({ f, ...check(f, values[f.name] ?? '') }));
    const found = checked.flatMap(({ f, message }) => (message ? [[aliasInputId(f.account), message] as const] : []));
    if (found.length === 0) return;
    e.preventDefault();
    setValues(Object.fromEntries(checked.map(({ f, value }) => [f.name, value])));
    setErrors(Object.fromEntries(checked.map(({ f, message }) => [f.name, message])));
    setSummary(found);
    setRefused((n) => n + 1);
  };

  return (
    <form ref={form} method="post" action={action} noValidate onSubmit={onSubmit}>
      <ScreenFields fields={screenFields} />
      <h1>{texts.title}</h1>
      <ErrorSummary title={texts.errorSummary} errors={summary} focusRef={summaryRef} />
      {fields.map((f) => {
        const id = aliasInputId(f.account);
        return (
          <Field key={f.name} id={id} label={f.label} error={errors[f.name]}>
            {(described) => (
              <input
                id={id}
                name={f.name}
                type="text"
                autoComplete="off"
                value={values[f.name] ?? ''}
                onChange={(e) => {
                  const typed = e.currentTarget.value;
                  setValues((shown) => ({ ...shown, [f.name]: typed }));
                  // Typing clears the field's error until it is checked again.
                  setErrors((shown) => ({ ...shown, [f.name]: null }));
                }}
                onBlur={(e) => onBlur(f, e)}
                {...described}
              />
            )}
          </Field>
        );
      })}
      <div className="actions">
        <button type="submit" className="btn" name="intent" value="continue">
          {texts.continue}
        </button>
        <button type="submit" className="btn btn-secondary" name="intent" value="skip">
          {texts.skip}
        </button>
      </div>
    </form>
  );
}
