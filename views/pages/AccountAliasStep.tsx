// Account alias step view (customer-information.md §2.3 'Name your accounts'): the form island, which
// is a plain form without JavaScript.
import type { Translate } from '../../shared/i18n.ts';
import { Island } from '../components/Island.tsx';
import AccountAliasForm, { type AliasFieldProps } from '../../client/islands/accountAlias.tsx';

export type AliasField = AliasFieldProps;

const errorKeys = ['accountAlias.error.length', 'accountAlias.error.CHARACTER_INVALID', 'accountAlias.error.ONLY_SPACES'];

export function AccountAliasStep({ t, action, fields, apiError }: { t: Translate; action: string; fields: AliasField[]; apiError: string | null }) {
  const labels = {
    title: t('accountAlias.title'),
    continue: t('accountAlias.continue'),
    skip: t('accountAlias.skip'),
    errors: Object.fromEntries(errorKeys.map((k) => [k, t(k)])),
  };
  return <Island name="accountAlias" component={AccountAliasForm} props={{ action, fields, apiError, labels }} />;
}
