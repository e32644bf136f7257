// Citizenship (customer-information §2.3, §4.3, §4.7, §7) as screens: choice ('only <market>' finishes; 'another
// country' first shows the CITIZENSHIP dialog), dialog (the same without JavaScript), countries (submitted for a task
// id each) and proof (an upload slot per country). Everything answered lives in ci.answers.citizenship, so Back, a
// reload or a second tab keeps it.
import { z } from 'zod';
import { finish, stepOf, type StepContext, type ScreenOutcome } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { withRetries } from '../../../upstream/retry.ts';
import { removeHref, uploadScreen, type UploadScreenErrors, type UploadSlot } from '../fileUploadScreen.tsx';
import {
  countriesNeedingProof,
  emptyCitizenship,
  isCitizenInTld,
  preselectedChoice,
  proofComplete,
  type CitizenshipAnswers,
} from '../../../../shared/citizenship.ts';
import { countryName, countryOptions, isCountryCode, type IsoCountryCode } from '../../../../shared/countries.ts';
import { sensitiveAnswerDialog, sensitiveAnswerRules } from '../../../../shared/sensitiveAnswers.ts';
import {
  CitizenshipChoiceStep,
  CitizenshipCountriesStep,
  CitizenshipDialogScreen,
  CitizenshipProofStep,
} from '../../../../views/pages/CitizenshipStepView.tsx';

type CitizenshipScreen = 'choice' | 'dialog' | 'countries' | 'proof';
type Ctx = StepContext<CitizenshipScreen>;
type Outcome = ScreenOutcome<CitizenshipScreen>;
const { defineStep, screen, goTo, again } = stepOf<CitizenshipScreen>();

const choices = z.enum(['inOfficeCitizenship', 'otherCitizenships']);

function answersOf(ctx: Ctx): CitizenshipAnswers {
  const answers = (ctx.ci.answers ??= {});
  return (answers.citizenship ??= emptyCitizenship());
}

/** POST submit-citizenship v3, tried 10 times (customer-information §9); answers the taskId per country. */
async function submit(ctx: Ctx, answers: CitizenshipAnswers, withAttachments: boolean) {
  const market = ctx.journey.country;
  const list = countriesNeedingProof(answers.countries, market).map((countryCode) => ({
    countryCode,
    ...(answers.tasks[countryCode] ? { taskId: answers.tasks[countryCode] } : {}),
    attachments: withAttachments ? (answers.attachments[countryCode] ?? []).map((f) => f.attachmentId) : [],
  }));
  const body = { prospectId: ctx.prospectId, isCitizenInTld: isCitizenInTld(answers.countries, market), citizenshipInformationList: list };
  return withRetries(() => ctx.brokerage.submitCitizenship(body), ctx.deps.config.FILE_RETRY_DELAY_MS);
}

/** The older submit-citizenship (FLAG_CITIZENSHIP_DEVIATIONS off): whether another citizenship is held, and the step is done. */
async function finishOlder(ctx: Ctx, choice: CitizenshipAnswers['choice'] & string): Promise<Outcome> {
  const citizenOutsideOfTld = choice === 'otherCitizenships';
  await withRetries(() => ctx.brokerage.submitOlderCitizenship({ prospectId: ctx.prospectId, citizenOutsideOfTld }), ctx.deps.config.FILE_RETRY_DELAY_MS);
  const countries = citizenOutsideOfTld ? [] : [ctx.journey.country as IsoCountryCode];
  Object.assign(answersOf(ctx), { choice, countries, tasks: {}, attachments: {} } satisfies CitizenshipAnswers);
  return finish;
}

/** 'Only <market>': an empty list, and the step is done. */
async function finishOnlyHome(ctx: Ctx): Promise<Outcome> {
  if (!ctx.deps.config.FLAG_CITIZENSHIP_DEVIATIONS) return finishOlder(ctx, 'inOfficeCitizenship');
  const market = ctx.journey.country;
  await withRetries(
    () => ctx.brokerage.submitCitizenship({ prospectId: ctx.prospectId, isCitizenInTld: true, citizenshipInformationList: [] }),
    ctx.deps.config.FILE_RETRY_DELAY_MS,
  );
  Object.assign(answersOf(ctx), {
    choice: 'inOfficeCitizenship',
    countries: [market as IsoCountryCode],
    tasks: {},
    attachments: {},
  } satisfies CitizenshipAnswers);
  return finish;
}

/** The other citizenship confirmed (the dialog's continue): on to the countries, or without deviations the step is done. */
function confirmOther(ctx: Ctx): Outcome | Promise<Outcome> {
  if (!ctx.deps.config.FLAG_CITIZENSHIP_DEVIATIONS) return finishOlder(ctx, 'otherCitizenships');
  answersOf(ctx).choice = 'otherCitizenships';
  return goTo('countries');
}

function choiceView(ctx: Ctx, error?: string) {
  const chosen = preselectedChoice(ctx.ci.answers?.citizenship, ctx.journey.country);
  return (
    <CitizenshipChoiceStep
      t={ctx.t}
      market={ctx.journey.country}
      action={ctx.action}
      fields={ctx.fields('choice')}
      dialogFields={ctx.fields('dialog')}
      {...(chosen ? { chosen } : {})}
      {...(error ? { error } : {})}
    />
  );
}

function countriesView(ctx: Ctx, chosen?: string[], error?: string) {
  return (
    <CitizenshipCountriesStep
      t={ctx.t}
      action={ctx.action}
      fields={ctx.fields()}
      options={countryOptions(localeOf(ctx.req, ctx.deps))}
      chosen={chosen ?? answersOf(ctx).countries}
      manualFormUrl={ctx.deps.config.MANUAL_SUPPORT_URL}
      {...(error ? { error } : {})}
    />
  );
}

/** One slot per country needing proof (slot key = its country code), each required. */
function proofSlots(ctx: Ctx): UploadSlot[] {
  const answers = answersOf(ctx);
  return countriesNeedingProof(answers.countries, ctx.journey.country).map((c) => ({
    key: c,
    ...(answers.tasks[c] ? { taskId: answers.tasks[c] } : {}),
    files: answers.attachments[c] ?? [],
    required: true,
  }));
}

function proofView(ctx: Ctx, errors: UploadScreenErrors) {
  const slots = proofSlots(ctx);
  const locale = localeOf(ctx.req, ctx.deps);
  const cards = slots.map((slot) => ({
    country: slot.key,
    countryName: countryName(slot.key as IsoCountryCode, locale),
    files: slot.files,
    ...(errors.slot === slot.key && errors.upload ? { error: errors.upload } : {}),
  }));
  return (
    <CitizenshipProofStep
      t={ctx.t}
      action={ctx.action}
      fields={ctx.fields()}
      cards={cards}
      complete={proofComplete(answersOf(ctx), ctx.journey.country)}
      removeHref={removeHref(ctx)}
      {...(errors.page ? { error: errors.page } : {})}
    />
  );
}

export const citizenship = defineStep({
  id: 'CITIZENSHIP_STEP',
  first: 'choice',
  answers: 'citizenship',
  screens: {
    choice: screen({
      input: z.object({ intent: z.literal('choose'), choice: choices.optional(), confirmed: z.literal('yes').optional() }),
      view: (ctx) => choiceView(ctx),
      invalid: (ctx) => again(choiceView(ctx, ctx.t('citizenship.error.choose'))),
      async submit(ctx, input) {
        if (!input.choice) return again(choiceView(ctx, ctx.t('citizenship.error.choose')));
        if (!sensitiveAnswerDialog('citizenship', input.choice)) return finishOnlyHome(ctx);
        // customer-information §2.3, §4.7: another citizenship first shows the CITIZENSHIP dialog; with
        // JavaScript the island asked in the modal and posts the choice confirmed.
        return input.confirmed ? confirmOther(ctx) : goTo('dialog');
      },
    }),

    dialog: screen({
      dialogOver: ['choice'],
      input: z.discriminatedUnion('intent', [
        z.object({ intent: z.literal('resetChoice') }),
        z.object({ intent: z.literal('choose'), choice: z.literal('otherCitizenships'), confirmed: z.literal('yes') }),
      ]),
      view: (ctx) => (
        <CitizenshipDialogScreen
          t={ctx.t}
          market={ctx.journey.country}
          action={ctx.action}
          fields={ctx.fields()}
          manualFormUrl={ctx.deps.config.MANUAL_SUPPORT_URL}
        />
      ),
      submit(ctx, input) {
        if (input.intent === 'choose') return confirmOther(ctx);
        // customer-information §4.7: the dialog's primary action puts the answer back to the market's.
        answersOf(ctx).choice = sensitiveAnswerRules.citizenship.resetTo;
        return goTo('choice');
      },
    }),

    countries: screen({
      // Without deviations only the choice is asked (a session from before the flag changed starts on it).
      available: (ctx) => ctx.deps.config.FLAG_CITIZENSHIP_DEVIATIONS,
      input: z.object({ intent: z.literal('countries'), countries: z.union([z.string(), z.array(z.string())]).optional() }),
      view: (ctx) => countriesView(ctx),
      invalid: (ctx) => again(countriesView(ctx, [], ctx.t('citizenship.countries.error'))),
      async submit(ctx, input) {
        const answers = answersOf(ctx);
        const posted = [input.countries ?? []].flat();
        const chosen = [...new Set(posted)].filter(isCountryCode);
        if (chosen.length === 0 || chosen.length !== new Set(posted).size) return again(countriesView(ctx, chosen, ctx.t('citizenship.countries.error')));
        // Only the market chosen after all: the same as 'only <market>'.
        if (countriesNeedingProof(chosen, ctx.journey.country).length === 0) return finishOnlyHome(ctx);
        answers.choice = 'otherCitizenships';
        answers.countries = chosen;
        // Proof already uploaded for a country still chosen is kept; a dropped country's is forgotten.
        answers.attachments = Object.fromEntries(chosen.filter((c) => answers.attachments[c]).map((c) => [c, answers.attachments[c]]));
        const tasks = await submit(ctx, answers, false);
        answers.tasks = Object.fromEntries(tasks.filter((task) => isCountryCode(task.countryCode)).map((task) => [task.countryCode, task.taskId]));
        return goTo('proof');
      },
    }),

    // customer-information §4.3: Continue once every listed country has at least one attachment.
    proof: uploadScreen({
      slots: proofSlots,
      setFiles(ctx, slot, files) {
        answersOf(ctx).attachments[slot as IsoCountryCode] = files;
      },
      view: proofView,
      missing: (ctx) => ctx.t('citizenship.proof.missing'),
      async finish(ctx) {
        await submit(ctx, answersOf(ctx), true);
        return finish;
      },
      // A session whose countries need no proof (nothing to upload) opens the step on its choice.
      available: (ctx) => ctx.deps.config.FLAG_CITIZENSHIP_DEVIATIONS && proofSlots(ctx).length > 0,
    }),
  },
});
