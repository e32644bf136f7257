// Account picker (customer-information.md §2.3, §4.2, §5): the country's accounts with their defaults
// and locks; every rule is in shared/accountPicker.ts (decidePicker). Screens: `accounts`, the picker, and
// `exclusive`, the confirmation dialog of an exclusive account (a screen of its own without JS; with JS
// the same dialog is a modal that only closes, and the picker form posts the confirmation). Both post
// the same fields and are decided by one function. The choice is posted as accountTypesWithCountry.
import { z } from 'zod';
import { finish, stepOf, type StepContext, type ScreenOutcome } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import type { StepAnswers } from '../../../journey.ts';
import { accountTypeWithCountry, type AccountTypeWithCountry } from '../../../../shared/contracts/brokerageContract.ts';
import { forMarket } from '../../../../shared/markets.ts';
import { decidePicker, defaultAccounts, epkSelectable, isDanishCampaign, precontractualDocumentIds } from '../../../../shared/accountPicker.ts';
import { AccountPickerStep, ExclusiveDialogScreen, exclusiveDialog, type PickerCard } from '../../../../views/pages/AccountPickerStepView.tsx';

type PickerScreen = 'accounts' | 'exclusive';
type Ctx = StepContext<PickerScreen>;
type Outcome = ScreenOutcome<PickerScreen>;
const { defineStep, screen, goTo, again } = stepOf<PickerScreen>();

type PickerAnswers = NonNullable<StepAnswers['accountPicker']>;

const list = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    v === undefined
      ? []
      : [v]
          .flat()
          .flatMap((s) => s.split(','))
          .filter((s) => s !== ''),
  );
const body = z.object({
  accounts: list,
  confirmed: list,
  intent: z.enum(['continue', 'confirm', 'cancel']).catch('continue').default('continue'),
  account: accountTypeWithCountry.optional().catch(undefined),
  confirm: z.literal('yes').optional().catch(undefined),
  dskExisting: z.enum(['yes', 'no']).optional().catch(undefined),
});

function answersOf(ctx: Ctx): PickerAnswers {
  return (
    ctx.ci.answers?.accountPicker ?? {
      accounts:
        ctx.ci.accounts.length > 0
          ? ctx.ci.accounts
          : defaultAccounts(ctx.journey.country)
              .filter((a) => a.selected)
              .map((a) => a.accountTypeWithCountry),
      confirmed: [],
    }
  );
}

function save(ctx: Ctx, answers: PickerAnswers): void {
  ctx.ci.answers = { ...ctx.ci.answers, accountPicker: answers };
}

async function documentsOf(ctx: Ctx, account: AccountTypeWithCountry) {
  try {
    return await ctx.brokerage.agreementBundles({
      pdf_id: precontractualDocumentIds[account],
      country: ctx.journey.country,
      lang: localeOf(ctx.req, ctx.deps).slice(0, 2),
    });
  } catch (err) {
    // The drawer says the documents are unavailable; choosing accounts does not depend on them.
    ctx.deps.logger.warn({ err, account }, 'agreement bundles failed');
    return null;
  }
}

async function pickerView(ctx: Ctx, answers: PickerAnswers, options: { error?: string; dskLocked?: boolean } = {}) {
  const { t, journey } = ctx;
  const ticked = new Set<string>(answers.accounts);
  const offered = defaultAccounts(journey.country);
  const campaign = isDanishCampaign(journey.country, journey.campaign);
  const dskLocked = options.dskLocked ?? (campaign && answers.dskExisting === 'yes');
  const cards: PickerCard[] = await Promise.all(
    offered.map(async (a) => {
      const code = a.accountTypeWithCountry;
      const epkOff = code === 'EPK_NO' && !epkSelectable(answers.accounts);
      // A box locked off (DSK after 'yes' in the campaign, EPK without DEP/ASK) is not ticked.
      const disabled = epkOff || (code === 'DSK_DK' && dskLocked);
      return { ...a, selected: a.mandatory || (!disabled && ticked.has(code)), documents: await documentsOf(ctx, code) };
    }),
  );
  return (
    <AccountPickerStep
      t={t}
      action={ctx.action}
      fields={ctx.fields('accounts')}
      dialogFields={ctx.fields('exclusive')}
      cards={cards}
      error={options.error ?? null}
      campaign={campaign}
      dskExisting={answers.dskExisting}
      dskLocked={dskLocked}
      esaDeclined={answers.esaDeclined ?? false}
      depositGuaranteeUrl={ctx.deps.config.DEPOSIT_GUARANTEE_URL ?? `${forMarket(ctx.deps.config.faqUrls, journey.country)}#deposit-guarantee`}
    />
  );
}

function dialogScreen(ctx: Ctx, account: AccountTypeWithCountry, answers: PickerAnswers, warning?: string) {
  return (
    <ExclusiveDialogScreen {...exclusiveDialog(ctx.t, account, { action: ctx.action, fields: ctx.fields('exclusive') }, answers.accounts, 'screen', warning)} />
  );
}

/** The exclusive account waiting for its confirmation (the `exclusive` screen). */
function pendingExclusive(ctx: Ctx, answers: PickerAnswers): AccountTypeWithCountry | undefined {
  return answers.accounts.find(
    (a) => defaultAccounts(ctx.journey.country).some((o) => o.exclusive && o.accountTypeWithCountry === a) && !answers.confirmed.includes(a),
  );
}

/** A post of the picker or of its dialog screen: the rules of customer-information §4.2 decide. */
async function decide(ctx: Ctx, post: z.infer<typeof body>): Promise<Outcome> {
  const previous = answersOf(ctx);
  const campaign = isDanishCampaign(ctx.journey.country, ctx.journey.campaign);
  const offeredExclusive = defaultAccounts(ctx.journey.country)
    .filter((a) => a.exclusive)
    .map((a) => a.accountTypeWithCountry as string);

  if (post.intent === 'cancel' && post.account && offeredExclusive.includes(post.account)) {
    // customer-information §4.2: cancel deselects the exclusive account; declining ESA shows the warning.
    save(ctx, {
      ...previous,
      accounts: post.accounts.filter((a) => a !== post.account) as AccountTypeWithCountry[],
      esaDeclined: post.account === 'ESA_FI' || previous.esaDeclined,
      ...(post.account === 'DSK_DK' ? { dskExisting: undefined } : {}),
    });
    return goTo('accounts');
  }
  let confirmed = [...new Set([...previous.confirmed, ...post.confirmed.filter((a) => offeredExclusive.includes(a))])] as AccountTypeWithCountry[];
  if (post.intent === 'confirm' && post.account && offeredExclusive.includes(post.account)) {
    if (post.confirm !== 'yes') {
      return again(
        dialogScreen(ctx, post.account, { ...previous, accounts: post.accounts as AccountTypeWithCountry[] }, ctx.t('accountPicker.dialog.confirmRequired')),
      );
    }
    confirmed = [...new Set([...confirmed, post.account])];
  }
  // A box unticked again needs a new confirmation when ticked again.
  confirmed = confirmed.filter((a) => post.accounts.includes(a));
  const dskExisting = post.dskExisting ?? (post.intent === 'confirm' ? previous.dskExisting : undefined);
  const decision = decidePicker(ctx.journey.country, { posted: post.accounts, confirmed, campaign, dskExisting });
  const answers: PickerAnswers = {
    accounts: decision.accounts,
    confirmed,
    dskExisting,
    esaDeclined: decision.accounts.includes('ESA_FI') ? false : previous.esaDeclined,
  };
  switch (decision.kind) {
    case 'error': {
      // Keep what was ticked (even an EPK the rules would clear) so the user sees their own choice.
      save(ctx, { ...answers, accounts: post.accounts.filter((a) => accountTypeWithCountry.safeParse(a).success) as AccountTypeWithCountry[] });
      const key = decision.error === 'dskQuestionRequired' ? 'accountPicker.dsk.questionRequired' : 'accountPicker.mustChooseOne';
      return again(await pickerView(ctx, answersOf(ctx), { error: ctx.t(key) }));
    }
    case 'dskLocked':
      save(ctx, answers);
      return again(await pickerView(ctx, answers, { dskLocked: true }), 200);
    case 'confirm':
      save(ctx, answers);
      return goTo('exclusive');
    case 'submit':
      await ctx.brokerage.submitAccountPicker(ctx.prospectId, decision.accounts);
      save(ctx, answers);
      ctx.ci.accounts = decision.accounts;
      return finish;
  }
}

export const accountPicker = defineStep({
  id: 'ACCOUNT_PICKER_STEP',
  first: 'accounts',
  answers: 'accountPicker',
  screens: {
    accounts: screen({
      input: body,
      view: (ctx) => pickerView(ctx, answersOf(ctx)),
      submit: decide,
      invalid: async (ctx) => again(await pickerView(ctx, answersOf(ctx))),
    }),
    exclusive: screen({
      input: body,
      dialogOver: ['accounts'],
      available: (ctx) => pendingExclusive(ctx, answersOf(ctx)) !== undefined,
      view(ctx) {
        const answers = answersOf(ctx);
        return dialogScreen(ctx, pendingExclusive(ctx, answers)!, answers);
      },
      submit: decide,
    }),
  },
});
