// Account alias step view (customer-information.md §2.3 'Name your accounts'): the accountAlias island
// (views/components/AccountAliasForm.tsx), a plain form post that is checked as it is filled in with JavaScript.
import type { Translate } from '../../shared/i18n.ts';
import { Island } from '../components/Island.tsx';
import { AccountAlias, type AccountAliasField } from '../components/AccountAliasForm.tsx';
import type { ScreenFieldValues } from '../components/ScreenForm.tsx';

export type AliasField = AccountAliasField;

const errorKeys = ['accountAlias.error.length', 'accountAlias.error.CHARACTER_INVALID', 'accountAlias.error.ONLY_SPACES'];

export function AccountAliasStep(props: { t: Translate; action: string; screenFields: ScreenFieldValues; fields: AliasField[]; apiError: string | null }) {
  const { t, action, screenFields, fields, apiError } = props;
  return (
    <Island
      name="accountAlias"
      component={AccountAlias}
      props={{
        action,
        screenFields,
        fields,
        apiError,
        texts: {
          title: t('accountAlias.title'),
          continue: t('accountAlias.continue'),
          skip: t('accountAlias.skip'),
          errorSummary: t('form.error.summary'),
          errors: Object.fromEntries(errorKeys.map((k) => [k, t(k)])),
        },
      }}
    />
  );
}
