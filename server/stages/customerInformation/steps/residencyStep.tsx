// Residency (customer-information §2.3, §3, §4.7, §5, §7, §8): the person lives outside the market's country.
// Screens: dialog (RESIDENCY, where the step opens; `?dialog=RESIDENCY` shows it again), address, questions (leaving
// them creates or updates the RESIDENCY case) and documents (uploaded to the case; Continue submits the step). What
// is typed lives in ci.answers.residency; the tax step reads its addressCountry.
import { z } from 'zod';
import { finish, stepOf, type StepContext, type ScreenOutcome } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import { withRetries } from '../../../upstream/retry.ts';
import { removeHref, uploadScreen, type UploadScreenErrors, type UploadSlot } from '../fileUploadScreen.tsx';
import { countryOptions } from '../../../../shared/countries.ts';
import {
  addressCountryOptions,
  addressFields,
  checkAddress,
  checkAnswers,
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
  ResidencyDocuments,
  ResidencyQuestionsForm,
  type AddressFormProps,
} from '../../../../views/pages/ResidencyStepView.tsx';

type ResidencyScreen = 'dialog' | 'address' | 'questions' | 'documents';
type Ctx = StepContext<ResidencyScreen>;
type Outcome = ScreenOutcome<ResidencyScreen>;
const { defineStep, screen, goTo, again } = stepOf<ResidencyScreen>();

const STEP = 'RESIDENCY_STEP' as const;
/** The documents screen's one slot. */
const DOCUMENTS_SLOT = 'proofOfAddress';

// A form value: one text (the first of repeated ones), capped well above the limits so a too-long answer
// is still reported as such, while a hostile post cannot bloat the session.
const text = (cap: number) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? (v[0] ?? '') : v).slice(0, cap))
    .catch('');
const addressInput = z.object({
  addressCountry: text(10),
  address: text(RESIDENCY_LIMITS.address * 2),
  zipCode: text(RESIDENCY_LIMITS.zipCode * 2),
  city: text(RESIDENCY_LIMITS.city * 2),
});
const questionsInput = z.object({
  applicationPurpose: text(RESIDENCY_LIMITS.answer * 2),
  reasonForLivingAbroad: text(RESIDENCY_LIMITS.answer * 2),
  durationAbroad: text(RESIDENCY_LIMITS.answer * 2),
});
/** The RESIDENCY dialog again, over the address (a GET: it changes nothing). */
const dialogQuery = z.object({ dialog: z.literal('RESIDENCY') });
/** A refused submit (400) names the offending fields; only well-formed names are kept (they are logged). */
const refusedBody = z.object({ data: z.object({ fields: z.array(z.string()).max(50) }) });
const fieldName = /^[A-Za-z][\w.[\]]{0,99}$/;

function answersOf(ctx: Ctx): ResidencyAnswers {
  const answers = (ctx.ci.answers ??= {});
  return (answers.residency ??= {});
}

function addressMessages(ctx: Ctx, problems: Partial<Record<AddressField, AddressProblem>>): Partial<Record<AddressField, string>> {
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

function answerMessages(ctx: Ctx, problems: Partial<Record<ResidencyQuestion, AnswerProblem>>): Partial<Record<ResidencyQuestion, string>> {
  return Object.fromEntries(
    Object.entries(problems).map(([q, problem]) => [
      q,
      problem === 'required' ? ctx.t('residency.error.answerRequired') : ctx.t('residency.error.tooLong', { max: RESIDENCY_LIMITS.answer }),
    ]),
  );
}

/** The address form (a form of the `address` screen, also behind the dialog). */
function addressProps(ctx: Ctx, values?: Partial<ResidencyAddress>, errors?: Partial<Record<AddressField, string>>): AddressFormProps {
  return {
    t: ctx.t,
    action: ctx.action,
    fields: ctx.fields('address'),
    options: addressCountryOptions(countryOptions(localeOf(ctx.req, ctx.deps)), ctx.journey.country),
    values: values ?? answersOf(ctx),
    ...(errors ? { errors } : {}),
  };
}

function dialogView(ctx: Ctx) {
  return (
    <ResidencyDialogGate
      t={ctx.t}
      dialog={{ action: ctx.action, fields: ctx.fields('dialog') }}
      market={ctx.journey.country}
      manualFormBase={ctx.deps.config.MANUAL_SUPPORT_URL}
      address={addressProps(ctx)}
    />
  );
}

function questionsView(ctx: Ctx, errors?: Partial<Record<ResidencyQuestion, string>>) {
  return <ResidencyQuestionsForm t={ctx.t} action={ctx.action} fields={ctx.fields()} values={answersOf(ctx).answers ?? {}} {...(errors ? { errors } : {})} />;
}

function documentSlots(ctx: Ctx): UploadSlot[] {
  const answers = answersOf(ctx);
  // customer-information §5 "Residency": at least one document to continue.
  return [{ key: DOCUMENTS_SLOT, ...(answers.nnxTaskId ? { taskId: answers.nnxTaskId } : {}), files: answers.files ?? [], required: true }];
}

function documentsView(ctx: Ctx, errors: UploadScreenErrors = {}) {
  const slots = documentSlots(ctx);
  return (
    <ResidencyDocuments
      t={ctx.t}
      action={ctx.action}
      fields={ctx.fields()}
      slot={DOCUMENTS_SLOT}
      files={slots[0]!.files}
      removeHref={removeHref(ctx)}
      {...(errors.upload ? { uploadError: errors.upload } : {})}
      {...(errors.page ? { error: errors.page } : {})}
    />
  );
}

/** True when the saved address has a problem (so the person goes back to it). */
function addressIncomplete(ctx: Ctx, answers: ResidencyAnswers): boolean {
  const address = Object.fromEntries(addressFields.map((f) => [f, answers[f] ?? ''])) as ResidencyAddress;
  return Object.keys(checkAddress(address, ctx.journey.country)).length > 0;
}

/** customer-information §7 POST create case (tried 10 times, customer-information §9); the same case (its taskId) again when it exists. */
async function createCase(ctx: Ctx, answers: ResidencyAnswers): Promise<Outcome> {
  const body = residencyCase(ctx.prospectId, answers, ctx.journey.country);
  if (!body) return goTo('address');
  answers.nnxTaskId = await withRetries(() => ctx.brokerage.createCase(body), ctx.deps.config.FILE_RETRY_DELAY_MS);
  return goTo('documents');
}

/** customer-information §7 POST submit residency step. A 400 names fields: shown as a message, logged by field name only. */
async function submitResidency(ctx: Ctx): Promise<Outcome> {
  const answers = answersOf(ctx);
  const body = residencySubmission(answers, ctx.journey.country);
  // Something before the documents is missing (e.g. an answer changed in another tab): back to it.
  if (!body) return goTo(addressIncomplete(ctx, answers) ? 'address' : 'questions');
  try {
    await ctx.brokerage.submitResidency(ctx.prospectId, body);
  } catch (err) {
    if (!(err instanceof UpstreamError) || err.status !== 400) throw err;
    const refused = refusedBody.safeParse(err.body);
    const fields = refused.success ? refused.data.data.fields.filter((f) => fieldName.test(f)) : [];
    ctx.deps.logger.warn({ step: STEP, status: err.status, fields }, 'residency step refused');
    const parts = refusedPartsOf(fields);
    const message = parts.length
      ? ctx.t('residency.error.refused', { fields: parts.map((p) => ctx.t(`residency.refused.${p}`)).join(', ') })
      : ctx.t('residency.error.refusedOther');
    return again(documentsView(ctx, { page: message }));
  }
  return finish;
}

export const residency = defineStep({
  id: STEP,
  first: 'dialog',
  answers: 'residency',
  screens: {
    // customer-information §2.3 "Compliance dialogs": RESIDENCY, with the manual form as its other way out.
    dialog: screen({
      dialogOver: ['address'],
      input: z.object({}),
      view: dialogView,
      // Also posted in the background by the modal (then the address form is already shown).
      submit: () => goTo('address'),
    }),

    address: screen({
      input: addressInput,
      view: (ctx) => (dialogQuery.safeParse(ctx.req.query).success ? dialogView(ctx) : <ResidencyAddressForm {...addressProps(ctx)} />),
      submit(ctx, input) {
        const address = trimAll(input);
        // Kept whatever it holds, so the form shows it again after a reload too.
        Object.assign(answersOf(ctx), address);
        const problems = checkAddress(address, ctx.journey.country);
        if (Object.keys(problems).length > 0) return again(<ResidencyAddressForm {...addressProps(ctx, address, addressMessages(ctx, problems))} />);
        return goTo('questions');
      },
    }),

    questions: screen({
      input: questionsInput,
      view: (ctx) => questionsView(ctx),
      async submit(ctx, input) {
        const answers = answersOf(ctx);
        if (addressIncomplete(ctx, answers)) return goTo('address');
        answers.answers = trimAll(input);
        const problems = checkAnswers(answers.answers as Record<ResidencyQuestion, string>);
        if (Object.keys(problems).length > 0) return again(questionsView(ctx, answerMessages(ctx, problems)));
        return createCase(ctx, answers);
      },
    }),

    // customer-information §5 "Files": uploaded to the case (without one, an upload changes nothing).
    documents: uploadScreen({
      slots: documentSlots,
      setFiles(ctx, _slot, files) {
        answersOf(ctx).files = files;
      },
      view: documentsView,
      missing: (ctx) => ctx.t('residency.documents.missing'),
      finish: (ctx) => submitResidency(ctx),
    }),
  },
});
