// Account alias form (customer-information.md §2.3, §5). The server renders it and it works as a plain
// form post; once hydrated it checks each name on blur (same rules as the server, shared/accountAlias.ts)
// and a cleared input gets its default name back when left.
import { useState } from 'react';
import { aliasErrorKey, validateAlias } from '../../shared/accountAlias.ts';
import { CsrfField } from '../../views/components/CsrfField.tsx';

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
  action: string;
  fields: AliasFieldProps[];
  apiError: string | null;
  labels: { title: string; continue: string; skip: string; errors: Record<string, string> };
}

export default function AccountAliasForm({ action, fields, apiError, labels }: AccountAliasFormProps) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.value])));
  const [errors, setErrors] = useState<Record<string, string | null>>(() => Object.fromEntries(fields.map((f) => [f.name, f.error])));

  const check = (f: AliasFieldProps) => {
    let value = values[f.name] ?? '';
    // §5: a cleared input restores the default name when left.
    if (value === '') {
      value = f.defaultName;
      setValues((v) => ({ ...v, [f.name]: value }));
    }
    const error = validateAlias(value);
    setErrors((e) => ({ ...e, [f.name]: error && (labels.errors[aliasErrorKey(error)] ?? null) }));
  };

  return (
    <form method="post" action={action} noValidate>
      <CsrfField />
      <input type="hidden" name="step" value="ACCOUNT_ALIAS_STEP" />
      <h1>{labels.title}</h1>
      {apiError && (
        <p className="error-summary" role="alert">
          {apiError}
        </p>
      )}
      {fields.map((f) => {
        const id = `alias-${f.account}`;
        const error = errors[f.name];
        return (
          <div key={f.name} className="field">
            <label htmlFor={id}>{f.label}</label>
            {error && (
              <p id={`${id}-error`} className="field__error">
                {error}
              </p>
            )}
            <input
              id={id}
              name={f.name}
              type="text"
              autoComplete="off"
              value={values[f.name] ?? ''}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => ({ ...v, [f.name]: value }));
                setErrors((er) => ({ ...er, [f.name]: null }));
              }}
              onBlur={() => check(f)}
            />
          </div>
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
