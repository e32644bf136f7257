// Citizenship (customer-information.md §2.3, §4.3, §4.7, §7). Sub-steps: 0 the choice (with the
// CITIZENSHIP dialog), 1 the countries, 2 proof of citizenship per country other than the market.
// 'Only <market>' submits an empty list and finishes. Choosing countries submits them to get a taskId
// per country (files are uploaded to a task); Continue on the proof sub-step submits the attachments.
// Everything answered lives in ci.answers.citizenship, so Back, a reload or a second tab keeps it.
import { z } from 'zod';
import type { StepContext, StepModule, StepOutcome } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { withRetries } from '../../../upstream/retry.ts';
import { removeFile, uploadFile } from '../uploads.ts';
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
} from '../../../../views/pages/CitizenshipStep.tsx';
import { Dialog } from '../../../../views/components/Dialog.tsx';
import { removeFileDialog } from '../../../../views/components/FileUpload.tsx';

const country = z.string().refine(isCountryCode);
const attachmentId = z.string().min(1).max(100);
const form = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('choose'), choice: z.enum(['inOfficeCitizenship', 'otherCitizenships']).optional(), confirmed: z.literal('yes').optional() }),
  z.object({ intent: z.literal('resetChoice') }),
  z.object({ intent: z.literal('countries'), countries: z.union([z.string(), z.array(z.string())]).optional() }),
  z.object({ intent: z.literal('upload'), country }),
  z.object({ intent: z.literal('remove'), country, attachmentId }),
  z.object({ intent: z.literal('finish') }),
]);
/** GET screens standing in for dialogs without JavaScript. */
const screenQuery = z.union([
  z.object({ dialog: z.literal('CITIZENSHIP') }),
  z.object({ remove: attachmentId, country }),
  z.object({}),
]);

function answersOf(ctx: StepContext): CitizenshipAnswers {
  const answers = (ctx.ci.answers ??= {});
  return (answers.citizenship ??= emptyCitizenship());
}

const dialogHref = (ctx: StepContext) => `${ctx.basePath}?dialog=CITIZENSHIP`;
const removeHref = (ctx: StepContext) => (c: string, id: string) => `${ctx.basePath}?remove=${encodeURIComponent(id)}&country=${encodeURIComponent(c)}`;

/** POST submit-citizenship v3, tried 10 times (§9); answers the taskId per country. */
async function submit(ctx: StepContext, answers: CitizenshipAnswers, withAttachments: boolean) {
  const market = ctx.journey.country;
  const list = countriesNeedingProof(answers.countries, market).map((countryCode) => ({
    countryCode,
    ...(answers.tasks[countryCode] ? { taskId: answers.tasks[countryCode] } : {}),
    attachments: withAttachments ? (answers.attachments[countryCode] ?? []).map((f) => f.attachmentId) : [],
  }));
  const body = { prospectId: ctx.ci.prospectId, isCitizenInTld: isCitizenInTld(answers.countries, market), citizenshipInformationList: list };
  return withRetries(() => ctx.deps.brokerage.submitCitizenship(ctx.jwt, body), ctx.deps.config.FILE_RETRY_DELAY_MS);
}

function proofView(ctx: StepContext, errors: { country?: string; upload?: string; page?: string } = {}) {
  const answers = answersOf(ctx);
  const market = ctx.journey.country;
  const locale = localeOf(ctx.req, ctx.deps);
  const cards = countriesNeedingProof(answers.countries, market).map((c) => ({
    country: c,
    countryName: countryName(c, locale),
    files: answers.attachments[c] ?? [],
    ...(errors.country === c && errors.upload ? { error: errors.upload } : {}),
  }));
  return (
    <CitizenshipProofStep
      t={ctx.t}
      action={ctx.action}
      cards={cards}
      complete={proofComplete(answers, market)}
      removeHref={removeHref(ctx)}
      {...(errors.page ? { error: errors.page } : {})}
    />
  );
}

function countriesView(ctx: StepContext, chosen?: string[], error?: string) {
  const answers = answersOf(ctx);
  return (
    <CitizenshipCountriesStep
      t={ctx.t}
      action={ctx.action}
      options={countryOptions(localeOf(ctx.req, ctx.deps))}
      chosen={chosen ?? answers.countries}
      manualFormUrl={ctx.deps.config.MANUAL_SUPPORT_URL}
      {...(error ? { error } : {})}
    />
  );
}

function choiceView(ctx: StepContext, error?: string) {
  const chosen = preselectedChoice(ctx.ci.answers?.citizenship, ctx.journey.country);
  return (
    <CitizenshipChoiceStep
      t={ctx.t}
      market={ctx.journey.country}
      action={ctx.action}
      manualFormUrl={ctx.deps.config.MANUAL_SUPPORT_URL}
      {...(chosen ? { chosen } : {})}
      {...(error ? { error } : {})}
    />
  );
}

/** 'Only <market>': an empty list, and the step is done. */
async function finishOnlyHome(ctx: StepContext, answers: CitizenshipAnswers): Promise<StepOutcome> {
  const market = ctx.journey.country;
  await withRetries(
    () => ctx.deps.brokerage.submitCitizenship(ctx.jwt, { prospectId: ctx.ci.prospectId, isCitizenInTld: true, citizenshipInformationList: [] }),
    ctx.deps.config.FILE_RETRY_DELAY_MS,
  );
  Object.assign(answers, { choice: 'inOfficeCitizenship', countries: [market as IsoCountryCode], tasks: {}, attachments: {} } satisfies CitizenshipAnswers);
  return { kind: 'advance' };
}

export const citizenship: StepModule = {
  id: 'CITIZENSHIP_STEP',
  view(ctx) {
    const sub = ctx.ci.subStep ?? 0;
    const query = screenQuery.safeParse(ctx.req.query);
    const screen = query.success ? query.data : {};
    if (sub === 0 && 'dialog' in screen) {
      return <CitizenshipDialogScreen t={ctx.t} market={ctx.journey.country} action={ctx.action} manualFormUrl={ctx.deps.config.MANUAL_SUPPORT_URL} />;
    }
    if (sub === 2 && 'remove' in screen) {
      const file = answersOf(ctx).attachments[screen.country as IsoCountryCode]?.find((f) => f.attachmentId === screen.remove);
      if (file) {
        return (
          <Dialog
            {...removeFileDialog(ctx.t, {
              id: 'remove-file-dialog',
              action: ctx.action,
              fields: { step: 'CITIZENSHIP_STEP', country: screen.country },
              file,
              keepHref: ctx.basePath,
            })}
          />
        );
      }
    }
    if (sub === 1) return countriesView(ctx);
    if (sub === 2) return proofView(ctx);
    return choiceView(ctx);
  },

  async submit(ctx, raw) {
    const parsed = form.safeParse(raw);
    const sub = ctx.ci.subStep ?? 0;
    if (!parsed.success) {
      const message = ctx.t(sub === 1 ? 'citizenship.countries.error' : 'citizenship.error.choose');
      const view = sub === 1 ? countriesView(ctx, [], message) : sub === 2 ? proofView(ctx, { page: ctx.t('citizenship.proof.missing') }) : choiceView(ctx, message);
      return { kind: 'render', status: 400, view };
    }
    const input = parsed.data;
    const answers = answersOf(ctx);
    const market = ctx.journey.country;
    switch (input.intent) {
      case 'choose':
        if (!input.choice) return { kind: 'render', status: 400, view: choiceView(ctx, ctx.t('citizenship.error.choose')) };
        // §2.3, §4.7: another citizenship first shows the CITIZENSHIP dialog (its own screen without JS).
        if (!sensitiveAnswerDialog('citizenship', input.choice)) return finishOnlyHome(ctx, answers);
        if (!input.confirmed) return { kind: 'redirect', url: dialogHref(ctx) };
        answers.choice = 'otherCitizenships';
        return { kind: 'subStep', subStep: 1 };
      case 'resetChoice':
        // §4.7: the dialog's primary action puts the answer back to the market's.
        answers.choice = sensitiveAnswerRules.citizenship.resetTo;
        return { kind: 'subStep', subStep: 0 };
      case 'countries': {
        const posted = [input.countries ?? []].flat();
        const chosen = [...new Set(posted)].filter(isCountryCode);
        if (chosen.length === 0 || chosen.length !== new Set(posted).size) {
          return { kind: 'render', status: 400, view: countriesView(ctx, chosen, ctx.t('citizenship.countries.error')) };
        }
        // Only the market chosen after all: the same as 'only <market>'.
        if (countriesNeedingProof(chosen, market).length === 0) return finishOnlyHome(ctx, answers);
        answers.choice = 'otherCitizenships';
        answers.countries = chosen;
        // Proof already uploaded for a country still chosen is kept; a dropped country's is forgotten.
        answers.attachments = Object.fromEntries(chosen.filter((c) => answers.attachments[c]).map((c) => [c, answers.attachments[c]]));
        const tasks = await submit(ctx, answers, false);
        answers.tasks = Object.fromEntries(tasks.filter((task) => isCountryCode(task.countryCode)).map((task) => [task.countryCode, task.taskId]));
        return { kind: 'subStep', subStep: 2 };
      }
      case 'upload': {
        const c = input.country as IsoCountryCode;
        const taskId = answers.tasks[c];
        if (sub !== 2 || !taskId) return { kind: 'redirect', url: ctx.basePath };
        const result = await uploadFile(ctx, { taskId });
        if (!result.ok) return { kind: 'render', status: 400, view: proofView(ctx, { country: c, upload: result.message }) };
        answers.attachments[c] = [...(answers.attachments[c] ?? []), result.file];
        return { kind: 'subStep', subStep: 2 };
      }
      case 'remove': {
        const c = input.country as IsoCountryCode;
        answers.attachments[c] = removeFile(answers.attachments[c] ?? [], input.attachmentId);
        return { kind: 'subStep', subStep: 2 };
      }
      case 'finish':
        if (sub !== 2) return { kind: 'redirect', url: ctx.basePath };
        if (!proofComplete(answers, market)) return { kind: 'render', status: 400, view: proofView(ctx, { page: ctx.t('citizenship.proof.missing') }) };
        await submit(ctx, answers, true);
        return { kind: 'advance' };
    }
  },

  back(ctx) {
    const sub = ctx.ci.subStep ?? 0;
    return sub > 0 ? sub - 1 : null;
  },
};
