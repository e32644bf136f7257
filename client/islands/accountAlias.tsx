// Account alias form (customer-information.md §2.3, §5). The server renders it and it works as a plain
// form post; once hydrated it checks each name on blur (same rules as the server, shared/accountAlias.ts)
// and a cleared input gets its default name back when left.
import { useState } from 'react';
import { aliasErrorKey, validateAlias } from '../../shared/accountAlias.ts';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';
import { ErrorSummary, Field } from '../../views/components/ErrorSummary.tsx';

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

  const check = (f: AliasFieldProps) => {
    let value = values[f.name] ?? '';
    // customer-information §5: a cleared input restores the default name when left.
    if (value === '') {
      value = f.defaultName;
      setValues((v) => ({ ...v, [f.name]: value }));
    }
    const error = validateAlias(value);
    setErrors((e) => ({ ...e, [f.name]: error && (labels.errors[aliasErrorKey(error)] ?? null) }));
  };

  return (
    <form method="post" action={action} noValidate>
      <ScreenFields fields={screenFields} />
      <h1>{labels.title}</h1>
      {/* The errors the server found (the summary does not follow each blur). */}
      <ErrorSummary
        title={labels.errorSummary}
        errors={[...(apiError ? [[null, apiError] as const] : []), ...fields.flatMap((f) => (f.error ? [[`alias-${f.account}`, f.error] as const] : []))]}
      />
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
                onBlur={() => check(f)}
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
