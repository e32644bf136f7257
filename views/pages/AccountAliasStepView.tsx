// Account alias step view (customer-information.md §2.3 'Name your accounts'): a plain form post, which the
// accountAlias script (client/islands/accountAliasIsland.ts) checks as it is filled in.
import type { Translate } from '../../shared/i18n.ts';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { ErrorSummary, Field } from '../components/ErrorSummary.tsx';
import { Island } from '../components/Island.tsx';
import { aliasInputId, type AccountAliasScriptProps } from '../../client/islands/accountAliasIsland.ts';

export interface AliasField {
  account: string;
  name: string;
  label: string;
  value: string;
  defaultName: string;
  /** Server-side error text, shown until the user edits the field. */
  error: string | null;
}

const errorKeys = ['accountAlias.error.length', 'accountAlias.error.CHARACTER_INVALID', 'accountAlias.error.ONLY_SPACES'];

export function AccountAliasStep(props: { t: Translate; action: string; screenFields: ScreenFieldValues; fields: AliasField[]; apiError: string | null }) {
  const { t, action, screenFields, fields, apiError } = props;
  const script: AccountAliasScriptProps = {
    fields: fields.map(({ account, name, defaultName }) => ({ account, name, defaultName })),
    labels: { errorSummary: t('form.error.summary'), errors: Object.fromEntries(errorKeys.map((k) => [k, t(k)])) },
  };
  const summary = [...(apiError ? [[null, apiError] as const] : []), ...fields.flatMap((f) => (f.error ? [[aliasInputId(f.account), f.error] as const] : []))];
  return (
    <Island name="accountAlias" props={script}>
      <form method="post" action={action} noValidate>
        <ScreenFields fields={screenFields} />
        <h1>{t('accountAlias.title')}</h1>
        <ErrorSummary t={t} errors={summary} />
        {fields.map((f) => {
          const id = aliasInputId(f.account);
          return (
            <Field key={f.name} id={id} label={f.label} error={f.error}>
              {(described) => <input id={id} name={f.name} type="text" autoComplete="off" defaultValue={f.value} {...described} />}
            </Field>
          );
        })}
        <div className="actions">
          <button type="submit" className="btn" name="intent" value="continue">
            {t('accountAlias.continue')}
          </button>
          <button type="submit" className="btn btn-secondary" name="intent" value="skip">
            {t('accountAlias.skip')}
          </button>
        </div>
      </form>
    </Island>
  );
}
