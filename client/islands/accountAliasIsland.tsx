// Account alias form (customer-information.md §2.3, §5). The server renders it and it works as a plain
// form post; once hydrated it checks each name on blur (same rules as the server, shared/accountAlias.ts)
// and a cleared input gets its default name back when left. Continue with a name that breaks the rules posts
// nothing: the names are checked at once, and the linked error summary shows and takes focus, as the
// server's would (issue 18; Skip posts as it is, the server keeps the default names).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { aliasErrorKey, validateAlias } from '../../shared/accountAlias.ts';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';
import { ErrorSummary, Field, type SummaryLine } from '../../views/components/ErrorSummary.tsx';

export interface AliasFieldProps {
  account: string;
  name: string;
  label: string;
  value: string;
  defaultName: string;
  /** Server-side error text, shown until the user edits the field. */
  error: string | null;
}

export interface AccountAliasFormProps {
  /** The hidden step and screen the form answers. */
  screenFields: ScreenFieldValues;
  action: string;
  fields: AliasFieldProps[];
  apiError: string | null;
  labels: { title: string; continue: string; skip: string; errorSummary: string; errors: Record<string, string> };
}

export default function AccountAliasForm({ action, screenFields, fields, apiError, labels }: AccountAliasFormProps) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.value])));
  const [errors, setErrors] = useState<Record<string, string | null>>(() => Object.fromEntries(fields.map((f) => [f.name, f.error])));

  // The summary: the server's errors until Continue finds some here, then those (not every blur's).
  const [summary, setSummary] = useState<readonly SummaryLine[]>(() => [
    ...(apiError ? [[null, apiError] as const] : []),
    ...fields.flatMap((f) => (f.error ? [[`alias-${f.account}`, f.error] as const] : [])),
  ]);
  const [focusSummary, setFocusSummary] = useState(0);
  const summaryRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusSummary > 0) summaryRef.current?.focus();
  }, [focusSummary]);

  /** The field's value as it will be posted (a cleared input restores its default name) and its error text. */
  const checked = (f: AliasFieldProps): { value: string; error: string | null } => {
    // customer-information §5: a cleared input restores the default name when left.
    const value = (values[f.name] ?? '') === '' ? f.defaultName : values[f.name]!;
    const error = validateAlias(value);
    return { value, error: error && (labels.errors[aliasErrorKey(error)] ?? null) };
  };

  const check = (f: AliasFieldProps) => {
    const { value, error } = checked(f);
    setValues((v) => ({ ...v, [f.name]: value }));
    setErrors((e) => ({ ...e, [f.name]: error }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.value === 'skip') return;
    const results = fields.map((f) => ({ f, ...checked(f) }));
    const found = results.flatMap(({ f, error }) => (error ? [[`alias-${f.account}`, error] as const] : []));
    if (found.length === 0) return;
    event.preventDefault();
    setValues((v) => ({ ...v, ...Object.fromEntries(results.map(({ f, value }) => [f.name, value])) }));
    setErrors(Object.fromEntries(results.map(({ f, error }) => [f.name, error])));
    setSummary(found);
    setFocusSummary((n) => n + 1);
  };

  return (
    <form method="post" action={action} noValidate onSubmit={onSubmit}>
      <ScreenFields fields={screenFields} />
      <h1>{labels.title}</h1>
      <ErrorSummary title={labels.errorSummary} errors={summary} focusRef={summaryRef} />
      {fields.map((f) => {
        const id = `alias-${f.account}`;
        const error = errors[f.name];
        return (
          <Field key={f.name} id={id} label={f.label} error={error}>
            {(described) => (
              <input
                id={id}
                name={f.name}
                type="text"
                autoComplete="off"
                value={values[f.name] ?? ''}
                {...described}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [f.name]: value }));
                  setErrors((er) => ({ ...er, [f.name]: null }));
                }}
                onBlur={(e) => {
                  // Leaving for Continue or Skip: the submit checks every name. An error shown now would move
                  // the button away under the pointer between press and release, and the click would be lost
                  // (issue 18: no summary, focus left on the button).
                  const to = e.relatedTarget;
                  if (to instanceof HTMLButtonElement && to.form === e.currentTarget.form) return;
                  check(f);
                }}
              />
            )}
          </Field>
        );
      })}
      <div className="actions">
        <button type="submit" className="btn" name="intent" value="continue">
          {labels.continue}
        </button>
        <button type="submit" className="btn btn-secondary" name="intent" value="skip">
          {labels.skip}
        </button>
      </div>
    </form>
  );
}
