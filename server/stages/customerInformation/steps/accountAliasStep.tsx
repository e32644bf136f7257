// Account alias step (customer-information.md §2.3, §4.1, §5, §8): one name per chosen account, checked
// by shared/accountAlias.ts and posted as accountTypeAliases. Continue and Skip both post; Skip sends
// the current names (an invalid one falls back to the default name, since Skip must not be blocked).
import { z } from 'zod';
import { finish, stepOf, type StepContext } from '../stepModule.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import type { AccountTypeWithCountry } from '../../../../shared/contracts/brokerageContract.ts';
import { aliasErrorKey, aliasToSend, defaultNameKey, validateAlias } from '../../../../shared/accountAlias.ts';
import { accountCode } from '../../../../shared/accountPicker.ts';
import { AccountAliasStep, type AliasField } from '../../../../views/pages/AccountAliasStepView.tsx';

type AliasScreen = 'alias';
type Ctx = StepContext<AliasScreen>;
const { defineStep, screen, again } = stepOf<AliasScreen>();

const fieldName = (account: AccountTypeWithCountry) => `alias_${account}`;
// Continue or Skip, and one name per account (read in submit: the accounts are the person's).
const body = z.object({ intent: z.enum(['continue', 'skip']).catch('continue').default('continue') }).catchall(z.unknown());
const text = z.string().max(500).catch('');

function fields(ctx: Ctx, values: Partial<Record<AccountTypeWithCountry, string>>, withErrors: boolean): AliasField[] {
  return ctx.ci.accounts.map((account) => {
    const defaultName = ctx.t(defaultNameKey(account));
    const value = values[account] ?? defaultName;
    const error = withErrors ? validateAlias(value) : null;
    return {
      account,
      name: fieldName(account),
      // code: the account's gender decides the possessive in some languages (sv: din depå, ditt konto).
      label: ctx.t('accountAlias.label', { account: defaultName, code: accountCode(account) }),
      value,
      defaultName,
      error: error && ctx.t(aliasErrorKey(error)),
    };
  });
}

function view(ctx: Ctx, values: Partial<Record<AccountTypeWithCountry, string>>, withErrors: boolean, apiError?: string) {
  return <AccountAliasStep t={ctx.t} action={ctx.action} screenFields={ctx.fields()} fields={fields(ctx, values, withErrors)} apiError={apiError ?? null} />;
}

export const accountAlias = defineStep({
  id: 'ACCOUNT_ALIAS_STEP',
  first: 'alias',
  answers: 'accountAlias',
  screens: {
    alias: screen({
      input: body,
      view: (ctx) => view(ctx, ctx.ci.answers?.accountAlias ?? {}, false),
      async submit(ctx, raw) {
        const intent = raw.intent;
        const values: Partial<Record<AccountTypeWithCountry, string>> = {};
        for (const account of ctx.ci.accounts) values[account] = text.parse(raw[fieldName(account)]);
        // Keep what was typed, so a reload or Back shows it again.
        ctx.ci.answers = { ...ctx.ci.answers, accountAlias: values };
        const invalid = ctx.ci.accounts.some((a) => validateAlias(values[a]!) !== null);
        if (invalid && intent === 'continue') return again(view(ctx, values, true));
        const accountTypeAliases = ctx.ci.accounts.map((account) => {
          const defaultName = ctx.t(defaultNameKey(account));
          const value = values[account]!;
          return { accountTypeWithCountry: account, alias: validateAlias(value) === null ? aliasToSend(value, defaultName) : defaultName };
        });
        try {
          await ctx.brokerage.submitAccountAlias(ctx.prospectId, accountTypeAliases);
        } catch (err) {
          // customer-information §8: 401/403 go to the page's wrapper (session expired); a 400 and other failures stay on the step.
          if (!(err instanceof UpstreamError) || err.status === 401 || err.status === 403) throw err;
          ctx.deps.logger.warn({ status: err.status }, 'account alias submit failed');
          const key = err.status === 400 ? 'accountAlias.error.api.badRequest' : 'accountAlias.error.api.other';
          return again(view(ctx, values, false, ctx.t(key)), err.status === 400 ? 400 : 502);
        }
        return finish;
      },
    }),
  },
});
