// Account picker (customer-information.md §2.3, §4.2): the country's accounts with their defaults and
// locks; the choice is checked by shared/accountPicker.ts and posted as accountTypesWithCountry.
import { z } from 'zod';
import type { StepContext, StepModule } from '../stepModule.ts';
import { defaultAccounts, resolveAccountChoice } from '../../../../shared/accountPicker.ts';
import { AccountPickerStep } from '../../../../views/pages/CustomerInformationPage.tsx';

const body = z.object({ accounts: z.union([z.string(), z.array(z.string())]).optional() });

function pickerView({ t, journey, ci, action }: StepContext, posted?: string[], error?: string) {
  const ticked = new Set(posted ?? ci.accounts);
  const accounts = defaultAccounts(journey.country).map((a) => ({ ...a, selected: a.mandatory || ticked.has(a.accountTypeWithCountry) }));
  return <AccountPickerStep t={t} accounts={accounts} action={action} error={error ?? null} />;
}

export const accountPicker: StepModule = {
  id: 'ACCOUNT_PICKER_STEP',
  view: (ctx) => pickerView(ctx),
  async submit(ctx, raw) {
    const parsed = body.safeParse(raw);
    const posted = parsed.success && parsed.data.accounts !== undefined ? [parsed.data.accounts].flat() : [];
    const choice = resolveAccountChoice(ctx.journey.country, posted);
    if (choice.error) return { kind: 'render', status: 400, view: pickerView(ctx, posted, ctx.t('accountPicker.mustChooseOne')) };
    await ctx.deps.brokerage.submitAccountPicker(ctx.jwt, ctx.ci.prospectId, choice.accounts);
    ctx.ci.accounts = choice.accounts;
    return { kind: 'advance' };
  },
};
