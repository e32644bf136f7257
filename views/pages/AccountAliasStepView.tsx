// Account alias step view (customer-information.md §2.3 'Name your accounts'): the form island, which
// is a plain form without JavaScript.
import type { Translate } from '../../shared/i18n.ts';
import type { ScreenFieldValues } from '../components/ScreenForm.tsx';
import { Island } from '../components/Island.tsx';
import AccountAliasForm, { type AliasFieldProps } from '../../client/islands/accountAliasIsland.tsx';

export type AliasField = AliasFieldProps;

const errorKeys = ['accountAlias.error.length', 'accountAlias.error.CHARACTER_INVALID', 'accountAlias.error.ONLY_SPACES'];

export function AccountAliasStep(props: { t: Translate; action: string; screenFields: ScreenFieldValues; fields: AliasField[]; apiError: string | null }) {
  const { t, action, screenFields, fields, apiError } = props;
  const labels = {
    title: t('accountAlias.title'),
    continue: t('accountAlias.continue'),
    skip: t('accountAlias.skip'),
    errorSummary: t('form.error.summary'),
    errors: Object.fromEntries(errorKeys.map((k) => [k, t(k)])),
  };
  return <Island name="accountAlias" component={AccountAliasForm} props={{ action, screenFields, fields, apiError, labels }} />;
}
