// Residency (customer-information.md §2.3 "Residency" and "Compliance dialogs", §3 residency data, §4.7,
// §5 "Residency", §7, §8). The person lives outside the market's country. Entering the step shows the
// RESIDENCY dialog until it is answered (a modal with JavaScript, the screen itself without); then sub-steps 0 the address
// abroad, 1 three free-text questions (leaving it creates, or updates, the RESIDENCY case), 2 the address
// documents, uploaded to the case; Continue submits the residency step.
// Everything typed lives in ci.answers.residency, so Back, a reload or a second tab keeps it. The tax step
// reads ci.answers.residency.addressCountry.
import type { ReactElement } from 'react';
import { z } from 'zod';
import type { StepContext, StepModule, StepOutcome } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import { withRetries } from '../../../upstream/retry.ts';
import { removeFile, uploadFile } from '../uploads.ts';
import { countryOptions } from '../../../../shared/countries.ts';
import {
  addressCountryOptions,
  addressFields,
  checkAddress,
  checkAnswers,
  documentsComplete,
  refusedPartsOf,
  residencyCase,
  residencySubmission,
  RESIDENCY_LIMITS,
  trimAll,
  type AddressField,
  type AddressProblem,
  type AnswerProblem,
  type ResidencyAddress,
  type ResidencyAnswers,
  type ResidencyQuestion,
} from '../../../../shared/residency.ts';
import {
  ResidencyAddressForm,
  ResidencyDialogGate,
  ResidencyDocumentsStep,
  ResidencyQuestionsForm,
  type AddressFormProps,
} from '../../../../views/pages/ResidencyStep.tsx';
import { Dialog } from '../../../../views/components/Dialog.tsx';
import { removeFileDialog } from '../../../../views/components/FileUpload.tsx';

const STEP = 'RESIDENCY_STEP' as const;

// A form value: one text (the first of repeated ones), capped well above the limits so a too-long answer
// is still reported as such, while a hostile post cannot bloat the session.
const text = (cap: number) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : v).slice(0, cap))
    .catch('');
const attachmentId = z.string().min(1).max(100);
const form = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('dialogContinue') }),
  z.object({
    intent: z.literal('address'),
    addressCountry: text(10),
    address: text(RESIDENCY_LIMITS.address * 2),
    zipCode: text(RESIDENCY_LIMITS.zipCode * 2),
    city: text(RESIDENCY_LIMITS.city * 2),
  }),
  z.object({
    intent: z.literal('questions'),
    applicationPurpose: text(RESIDENCY_LIMITS.answer * 2),
    reasonForLivingAbroad: text(RESIDENCY_LIMITS.answer * 2),
    durationAbroad: text(RESIDENCY_LIMITS.answer * 2),
  }),
  z.object({ intent: z.literal('upload') }),
  z.object({ intent: z.literal('remove'), attachmentId }),
  z.object({ intent: z.literal('finish') }),
]);
/** The no-JS screen of removing a file. */
const removeQuery = z.object({ remove: attachmentId });
/** The RESIDENCY dialog again (by itself it shows only until answered). */
const dialogQuery = z.object({ dialog: z.literal('RESIDENCY') });
/** A refused submit (400) names the offending fields; only well-formed names are kept (they are logged). */
const refusedBody = z.object({ data: z.object({ fields: z.array(z.string()).max(50) }) });
const fieldName = /^[A-Za-z][\w.[\]]{0,99}$/;

function answersOf(ctx: StepContext): ResidencyAnswers {
  const answers = (ctx.ci.answers ??= {});
  return (answers.residency ??= {});
}

function addressMessages(ctx: StepContext, problems: Partial<Record<AddressField, AddressProblem>>): Partial<Record<AddressField, string>> {
  const { t } = ctx;
  const message = (field: AddressField, problem: AddressProblem): string => {
    switch (problem) {
      case 'required':
        return t(`residency.error.${field}Required`);
      case 'tooLong':
        return t('residency.error.tooLong', { max: RESIDENCY_LIMITS[field as Exclude<AddressField, 'addressCountry'>] });
      case 'homeCountry':
        return t('residency.error.countryHome', { country: ctx.journey.country });
      case 'unknownCountry':
        return t('residency.error.countryUnknown');
    }
  };
  return Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, message(field as AddressField, problem)]));
}

function answerMessages(ctx: StepContext, problems: Partial<Record<ResidencyQuestion, AnswerProblem>>): Partial<Record<ResidencyQuestion, string>> {
  return Object.fromEntries(
    Object.entries(problems).map(([q, problem]) => [q, problem === 'required' ? ctx.t('residency.error.answerRequired') : ctx.t('residency.error.tooLong', { max: RESIDENCY_LIMITS.answer })]),
  );
}

function addressProps(ctx: StepContext, values?: Partial<ResidencyAddress>, errors?: Partial<Record<AddressField, string>>): AddressFormProps {
  const answers = answersOf(ctx);
  return {
    t: ctx.t,
    action: ctx.action,
    options: addressCountryOptions(countryOptions(localeOf(ctx.req, ctx.deps)), ctx.journey.country),
    values: values ?? answers,
    ...(errors ? { errors } : {}),
  };
}

function questionsView(ctx: StepContext, errors?: Partial<Record<ResidencyQuestion, string>>) {
  return <ResidencyQuestionsForm t={ctx.t} action={ctx.action} values={answersOf(ctx).answers ?? {}} {...(errors ? { errors } : {})} />;
}

function documentsView(ctx: StepContext, messages: { upload?: string; page?: string } = {}) {
  return (
    <ResidencyDocumentsStep
      t={ctx.t}
      action={ctx.action}
      files={answersOf(ctx).files ?? []}
      removeHref={(id) => `${ctx.basePath}?remove=${encodeURIComponent(id)}`}
      {...(messages.upload ? { uploadError: messages.upload } : {})}
      {...(messages.page ? { error: messages.page } : {})}
    />
  );
}

/** Shows the sub-step again with its messages, input kept. */
const render = (view: ReactElement): StepOutcome => ({ kind: 'render', status: 400, view });

/** §7 POST create case (tried 10 times, §9); the same case (its taskId) again when it exists. */
async function createCase(ctx: StepContext, answers: ResidencyAnswers): Promise<StepOutcome> {
  const body = residencyCase(ctx.ci.prospectId, answers, ctx.journey.country);
  if (!body) return { kind: 'subStep', subStep: 0 };
  answers.nnxTaskId = await withRetries(() => ctx.deps.brokerage.createCase(ctx.jwt, body), ctx.deps.config.FILE_RETRY_DELAY_MS);
  return { kind: 'subStep', subStep: 2 };
}

/** §7 POST submit residency step. A 400 names fields: shown as a message, logged by field name only. */
async function finish(ctx: StepContext, answers: ResidencyAnswers): Promise<StepOutcome> {
  if (!documentsComplete(answers)) return render(documentsView(ctx, { page: ctx.t('residency.documents.missing') }));
  const body = residencySubmission(answers, ctx.journey.country);
  // Something before the documents is missing (e.g. an answer changed in another tab): back to the start.
  if (!body) return { kind: 'subStep', subStep: checkAddressOf(answers, ctx) ? 0 : 1 };
  try {
    await ctx.deps.brokerage.submitResidency(ctx.jwt, ctx.ci.prospectId, body);
  } catch (err) {
    if (!(err instanceof UpstreamError) || err.status !== 400) throw err;
    const refused = refusedBody.safeParse(err.body);
    const fields = refused.success ? refused.data.data.fields.filter((f) => fieldName.test(f)) : [];
    ctx.deps.logger.warn({ step: STEP, status: err.status, fields }, 'residency step refused');
    const parts = refusedPartsOf(fields);
    const message = parts.length
      ? ctx.t('residency.error.refused', { fields: parts.map((p) => ctx.t(`residency.refused.${p}`)).join(', ') })
      : ctx.t('residency.error.refusedOther');
    return render(documentsView(ctx, { page: message }));
  }
  return { kind: 'advance' };
}

/** True when the saved address has a problem (so the person goes back to it). */
function checkAddressOf(answers: ResidencyAnswers, ctx: StepContext): boolean {
  const address = Object.fromEntries(addressFields.map((f) => [f, answers[f] ?? ''])) as ResidencyAddress;
  return Object.keys(checkAddress(address, ctx.journey.country)).length > 0;
}

export const residency: StepModule = {
  id: STEP,
  view(ctx) {
    const sub = ctx.ci.subStep ?? 0;
    const answers = answersOf(ctx);
    if (sub === 2) {
      const query = removeQuery.safeParse(ctx.req.query);
      const file = query.success ? answers.files?.find((f) => f.attachmentId === query.data.remove) : undefined;
      if (file) {
        return <Dialog {...removeFileDialog(ctx.t, { id: 'remove-file-dialog', action: ctx.action, fields: { step: STEP }, file, keepHref: ctx.basePath })} />;
      }
      return documentsView(ctx);
    }
    if (sub === 1) return questionsView(ctx);
    // Shown until answered (its Continue, or an address posted): then a reload, Back or another tab goes
    // straight to the address.
    if (!answers.dialogSeen || dialogQuery.safeParse(ctx.req.query).success) {
      return (
        <ResidencyDialogGate
          t={ctx.t}
          action={ctx.action}
          market={ctx.journey.country}
          manualFormBase={ctx.deps.config.MANUAL_SUPPORT_URL}
          address={addressProps(ctx)}
        />
      );
    }
    return <ResidencyAddressForm {...addressProps(ctx)} />;
  },

  async submit(ctx, raw) {
    const sub = ctx.ci.subStep ?? 0;
    const parsed = form.safeParse(raw);
    // A post we cannot read: show the current sub-step again.
    if (!parsed.success) return { kind: 'redirect', url: ctx.basePath };
    const input = parsed.data;
    const answers = answersOf(ctx);
    switch (input.intent) {
      case 'dialogContinue':
        // Also posted in the background by the modal: it never moves the person, it only remembers.
        answers.dialogSeen = true;
        return { kind: 'redirect', url: ctx.basePath };
      case 'address': {
        const { intent: _, ...fields } = input;
        const address = trimAll(fields);
        // Kept whatever it holds, so the form shows it again after a reload too.
        Object.assign(answers, address, { dialogSeen: true });
        const problems = checkAddress(address, ctx.journey.country);
        if (Object.keys(problems).length > 0) return render(<ResidencyAddressForm {...addressProps(ctx, address, addressMessages(ctx, problems))} />);
        return { kind: 'subStep', subStep: 1 };
      }
      case 'questions': {
        if (checkAddressOf(answers, ctx)) return { kind: 'subStep', subStep: 0 };
        const { intent: _, ...given } = input;
        answers.answers = trimAll(given);
        const problems = checkAnswers(answers.answers as Record<ResidencyQuestion, string>);
        if (Object.keys(problems).length > 0) return render(questionsView(ctx, answerMessages(ctx, problems)));
        return createCase(ctx, answers);
      }
      case 'upload': {
        if (sub !== 2 || !answers.nnxTaskId) return { kind: 'redirect', url: ctx.basePath };
        const result = await uploadFile(ctx, { taskId: answers.nnxTaskId });
        if (!result.ok) return render(documentsView(ctx, { upload: result.message }));
        answers.files = [...(answers.files ?? []), result.file];
        return { kind: 'subStep', subStep: 2 };
      }
      case 'remove':
        if (sub !== 2) return { kind: 'redirect', url: ctx.basePath };
        answers.files = removeFile(answers.files ?? [], input.attachmentId);
        return { kind: 'subStep', subStep: 2 };
      case 'finish':
        if (sub !== 2) return { kind: 'redirect', url: ctx.basePath };
        return finish(ctx, answers);
    }
  },

  back(ctx) {
    const sub = ctx.ci.subStep ?? 0;
    return sub > 0 ? sub - 1 : null;
  },
};
