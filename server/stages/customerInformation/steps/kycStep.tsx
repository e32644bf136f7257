// The KYC questionnaire (customer-information.md §2.3, §3 "Answer session page", §4.6, §4.7, §5 "KYC", §7, §9) as
// screens. Its waiting happens in the worker (workers/kycPreparationJob.ts: the answer session's start and 409
// retries, the risk polling, the submit), whose latest state the step reads (resolve), so the screen follows that
// state rather than only the session. Entering the step starts a run (`kyc-N`, kycRuns.ts); a submitted run finishes
// the step.
import type { Request } from 'express';
import { z } from 'zod';
import { stepOf, type StepContext, type ScreenOutcome } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { runCredentialsOf, type KycProgress } from '../../../journey.ts';
import { UpstreamError } from '../../../upstream/http.ts';
import { callErrorKind } from '../calls.ts';
import { enqueueKycRisk } from '../../../infra/kycJobs.ts';
import { enterStep, kycProgressOf, restartedOutOfStep, runIdOf, startRun } from './kycRuns.ts';
import type { KycState } from '../../../infra/kycStates.ts';
import { answerProblem, controlOf, kycPointsDone, riskPollWaitMs } from '../../../../shared/kyc.ts';
import {
  PEP_NO,
  PEP_QUESTION,
  PEP_YES,
  privateQuestionOrder,
  type AnswerSessionAnswers,
  type AnswerSessionPage,
} from '../../../../shared/contracts/kycContract.ts';
import { routes } from '../../../../shared/routes.ts';
import { withGivenTexts } from '../../../../shared/answersSummarySections.ts';
import {
  KycFailedScreen,
  KycLoaderScreen,
  KycMoreInformationScreen,
  KycQuestionScreen,
  pepDialog,
  PEP_DIALOG_ID,
  type KycQuestionView,
} from '../../../../views/pages/KycStepView.tsx';
import { Dialog } from '../../../../views/components/Dialog.tsx';
import { StepError } from '../../../../views/pages/CustomerInformationPageView.tsx';

type KycScreen = 'loader' | 'question' | 'pep' | 'moreInformation' | 'sessionEnded' | 'failed';
type Ctx = StepContext<KycScreen>;
type Outcome = ScreenOutcome<KycScreen>;
const { defineStep, screen, goTo, again } = stepOf<KycScreen>();

// A page view asks for the run's state up to three times (the finished steps it moves past, its screen, the loader's or
// question's view): read once per GET, one Redis read. A post reads afresh each time, since it may enqueue and publish.
const readByPageView = new WeakMap<Request, Promise<KycState | null>>();

function latestState(ctx: Ctx): Promise<KycState | null> {
  if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD') return ctx.deps.kycStates.latest(ctx.prospectId);
  let read = readByPageView.get(ctx.req);
  if (!read) {
    read = ctx.deps.kycStates.latest(ctx.prospectId);
    readByPageView.set(ctx.req, read);
  }
  return read;
}

/** The latest state of this session's run (another run's state does not count). */
async function runState(ctx: Ctx, kyc: KycProgress): Promise<KycState | null> {
  const state = await latestState(ctx);
  return state?.runId === runIdOf(kyc.run) ? state : null;
}

/** The page shown and its session: the person's own (after next or previous), else the run's first. */
async function shownPage(ctx: Ctx): Promise<{ answerSessionId: string; page: AnswerSessionPage } | null> {
  const kyc = kycProgressOf(ctx);
  if (!kyc) return null;
  if (kyc.page && kyc.answerSessionId) return { answerSessionId: kyc.answerSessionId, page: kyc.page };
  const state = await runState(ctx, kyc);
  return state?.status === 'questions' && state.page && state.answerSessionId ? { answerSessionId: state.answerSessionId, page: state.page } : null;
}

/**
 * What a post of the page names: its run, its place and its questions, so a stale tab cannot answer another page,
 * nor a page of an earlier run the same question in a new one.
 */
const pageKeyOf = (kyc: KycProgress, page: AnswerSessionPage) => `${kyc.run}.${kyc.pagesAnswered}:${page.questions.map((q) => q.id).join('-')}`;

/** The questions shown: other types are not rendered (customer-information §5), and logged. */
function renderedQuestions(ctx: Ctx, page: AnswerSessionPage) {
  return page.questions.flatMap((q) => {
    const control = controlOf(q);
    if (control) return [{ question: q, control }];
    ctx.deps.logger.warn({ questionId: q.id, type: q.type }, 'kyc question of an unknown answer type not rendered');
    return [];
  });
}

type Chosen = Record<string, number[]>;

function questionView(ctx: Ctx, shown: { page: AnswerSessionPage }, options: { chosen?: Chosen; errors?: Record<string, string> } = {}) {
  const kyc = kycProgressOf(ctx)!;
  const chosen = options.chosen ?? kyc.chosen ?? {};
  const questions: KycQuestionView[] = renderedQuestions(ctx, shown.page).map(({ question, control }) => ({
    id: question.id,
    text: question.text,
    control,
    options: question.options,
    helpText: question.helpText ?? null,
    chosen: chosen[question.id] ?? kyc.given?.[question.id] ?? [],
    error: options.errors?.[question.id] ?? null,
  }));
  const pepQuestion = questions.find((q) => q.id === PEP_QUESTION && q.options.some((o) => o.id === PEP_YES));
  return (
    <KycQuestionScreen
      t={ctx.t}
      action={ctx.action}
      fields={ctx.fields('question')}
      pageKey={pageKeyOf(kyc, shown.page)}
      title={shown.page.title || ctx.t('kyc.title')}
      notice={kyc.restarted ? ctx.t('kyc.answersKept') : null}
      questions={questions}
      pep={
        pepQuestion
          ? {
              dialogId: PEP_DIALOG_ID,
              questionId: PEP_QUESTION,
              yes: PEP_YES,
              no: PEP_NO,
              dialog: pepDialog(ctx.t, {
                action: ctx.action,
                fields: ctx.fields('pep'),
                market: ctx.journey.country,
                manualFormBase: ctx.deps.config.MANUAL_SUPPORT_URL,
              }),
            }
          : null
      }
    />
  );
}

/**
 * Sends the page's answers (next). The next page, or after the last one the risk calculation (the worker
 * polls it and submits the step). A failed call: the page again with the API error banner, the answer kept;
 * refused as out of step with the answer session: a new run with the answers kept (kycRuns.ts).
 */
async function answerPage(
  ctx: Ctx,
  shown: { answerSessionId: string; page: AnswerSessionPage },
  answers: AnswerSessionAnswers,
  chosen: Chosen,
): Promise<Outcome> {
  const kyc = kycProgressOf(ctx)!;
  let next;
  try {
    next = await ctx.brokerage.answerSessionNext(shown.answerSessionId, answers);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    if (await restartedOutOfStep(ctx, err, 'next', { page: shown.page, answers })) return goTo('question');
    ctx.deps.logger.warn({ status: err.status, step: 'KYC_STEP' }, 'kyc answer-session next failed');
    kyc.chosen = chosen;
    return again(questionView(ctx, shown, { chosen }), 502, { screen: 'question', error: callErrorKind(err) });
  }
  kyc.given = { ...kyc.given, ...Object.fromEntries(answers.map((a) => [String(a.questionId), a.answerIds])) };
  // The texts as shown, for milestone three's summary (shared/answersSummarySections.ts).
  kyc.givenTexts = withGivenTexts(kyc.givenTexts, shown.page, answers);
  kyc.answerSessionId = next.answerSessionId;
  kyc.pagesAnswered += 1;
  delete kyc.chosen;
  delete kyc.pepPending;
  delete kyc.restarted;
  if (shown.page.hasNextPage && next.answerSessionPage) {
    kyc.page = next.answerSessionPage;
    return goTo('question');
  }
  // The last page is answered: the risk calculation, polled by the worker, then the submit.
  delete kyc.page;
  const { KYC_RISK_POLL_BASE_MS: baseMs, KYC_RISK_POLL_STEP_MS: stepMs } = ctx.deps.config;
  await enqueueKycRisk(
    { queue: ctx.deps.queue, credentials: ctx.deps.creationCredentials, riskWaitMs: (attempt) => riskPollWaitMs(attempt, { baseMs, stepMs }) },
    { prospectId: ctx.prospectId, runId: runIdOf(kyc.run), locale: localeOf(ctx.req, ctx.deps), credentials: runCredentialsOf(ctx.journey) },
  );
  kyc.phase = 'risk';
  kyc.waitingSince = Date.now();
  return goTo('question');
}

// Answers arrive as answer-<questionId>: one value (radio, select) or several (checkboxes).
const answerFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const questionInput = z.object({ kycPage: z.string().min(1).max(200) }).and(answerFields);

/** The chosen answer ids per question, as posted (anything not an id is left out; the rules then refuse it). */
function chosenOf(body: z.infer<typeof answerFields>, questionIds: readonly number[]): Chosen {
  return Object.fromEntries(
    questionIds.map((id) => {
      const raw = body[`answer-${id}`];
      const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v) => /^\d{1,9}$/.test(v)).map(Number);
      return [String(id), values];
    }),
  );
}

export const kyc = defineStep({
  id: 'KYC_STEP',
  first: 'loader',

  async enter(ctx) {
    await enterStep(ctx);
  },

  async resolve(ctx) {
    const kyc = kycProgressOf(ctx);
    if (!kyc) return 'failed';
    const state = await runState(ctx, kyc);
    if (state?.status === 'submitted') return 'finished';
    if (state?.status === 'moreInformationRequired') return 'moreInformation';
    if (state?.status === 'error') return 'failed';
    if (state?.status === 'sessionEnded') return 'sessionEnded';
    if (kyc.phase === 'risk') return 'loader';
    const hasPage = (kyc.page && kyc.answerSessionId) || (state?.status === 'questions' && state.page);
    if (!hasPage) return 'loader';
    return ctx.ci.screen === 'pep' && kyc.pepPending ? 'pep' : 'question';
  },

  pointsDone(ctx) {
    // One question per page (customer-information §2.3): questionnaire 8's ten questions are its pages.
    return kycPointsDone(kycProgressOf(ctx)?.pagesAnswered ?? 0, privateQuestionOrder.length);
  },

  screens: {
    // The run's start or risk calculation is awaited; the page refreshes itself without JavaScript.
    loader: screen({
      busy: true,
      input: z.object({}),
      async view(ctx) {
        const kyc = kycProgressOf(ctx);
        const state = kyc ? await runState(ctx, kyc) : null;
        const analysing = kyc?.phase === 'risk' || state?.status === 'analysing';
        return (
          <KycLoaderScreen
            t={ctx.t}
            status={analysing ? 'analysing' : 'preparing'}
            shownUrl={routes.customerInformationShown(ctx.prospectId)}
            step="KYC_STEP"
            screen="loader"
            slowInMs={(kyc?.waitingSince ?? Date.now()) + ctx.deps.config.KYC_LOADER_SLOW_AFTER_MS - Date.now()}
          />
        );
      },
      // Nothing to answer while waiting.
      submit: () => goTo('loader'),
    }),

    // A page of the answer session: the post sends its answers (next) and shows the next page; after the last one
    // the risk calculation is requested and the loader shows. Back fetches the previous page. A failed next or
    // previous shows the API error banner, the answer kept; one refused because the page is out of step with the
    // answer session starts a new run with the answers kept (kycRuns.ts).
    question: screen({
      input: questionInput,
      async view(ctx) {
        const shown = await shownPage(ctx);
        return shown ? questionView(ctx, shown) : <></>;
      },
      async submit(ctx, input) {
        const kyc = kycProgressOf(ctx)!;
        const shown = await shownPage(ctx);
        // A post for another page (a stale tab, a double submit) changes nothing.
        if (!shown || input.kycPage !== pageKeyOf(kyc, shown.page)) return goTo('question');
        const questions = renderedQuestions(ctx, shown.page);
        const chosen = chosenOf(
          input,
          questions.map((q) => q.question.id),
        );
        const errors: Record<string, string> = {};
        for (const { question } of questions) if (answerProblem(question, chosen[question.id] ?? [])) errors[question.id] = ctx.t('kyc.chooseAlternative');
        if (Object.keys(errors).length > 0) return again(questionView(ctx, shown, { chosen, errors }), 400, { screen: 'question' });
        const answers: AnswerSessionAnswers = questions.map(({ question }) => ({ questionId: question.id, answerIds: chosen[question.id]! }));
        // customer-information §4.7: a PEP yes asks first (the dialog; a modal over this page with JavaScript).
        if ((chosen[PEP_QUESTION] ?? []).includes(PEP_YES)) {
          kyc.pepPending = answers;
          kyc.chosen = chosen;
          return goTo('pep');
        }
        return answerPage(ctx, shown, answers, chosen);
      },
      async back(ctx) {
        const kyc = kycProgressOf(ctx);
        if (!kyc?.answerSessionId || kyc.pagesAnswered === 0) return false;
        // customer-information §4.6: Back fetches the previous page (a failure: the API error banner; out of step
        // with the answer session: a new run with the answers kept, whose first page Back leads to).
        let previous;
        try {
          previous = await ctx.brokerage.answerSessionPrevious(kyc.answerSessionId);
        } catch (err) {
          if (err instanceof UpstreamError && (await restartedOutOfStep(ctx, err, 'previous'))) return true;
          throw err;
        }
        if (!previous.answerSessionPage) return false;
        kyc.answerSessionId = previous.answerSessionId;
        kyc.page = previous.answerSessionPage;
        kyc.pagesAnswered -= 1;
        delete kyc.chosen;
        delete kyc.pepPending;
        return true;
      },
    }),

    // A dialog over question: a PEP yes asks first; its primary action answers no (223) and goes on, its Cancel goes
    // back to the question with nothing answered.
    pep: screen({
      dialogOver: ['question'],
      // Cancel posts intent=cancel; the primary action posts no intent.
      input: z.object({ intent: z.literal('cancel').optional().catch(undefined) }),
      view: (ctx) => (
        <Dialog
          {...pepDialog(ctx.t, {
            id: 'pep-dialog-screen',
            action: ctx.action,
            fields: ctx.fields('pep'),
            market: ctx.journey.country,
            manualFormBase: ctx.deps.config.MANUAL_SUPPORT_URL,
          })}
        />
      ),
      // The primary action: the PEP answer back to no (223), and on (customer-information §4.7). Cancel: back
      // to the question with nothing answered and nothing sent (customer-information §2.3 "Compliance dialogs").
      async submit(ctx, input) {
        const kyc = kycProgressOf(ctx)!;
        if (input.intent === 'cancel') {
          delete kyc.pepPending;
          delete kyc.chosen;
          return goTo('question');
        }
        const shown = await shownPage(ctx);
        if (!shown || !kyc.pepPending) return goTo('question');
        const answers = kyc.pepPending.map((a) => (a.questionId === PEP_QUESTION ? { questionId: a.questionId, answerIds: [PEP_NO] } : a));
        const chosen = Object.fromEntries(answers.map((a) => [String(a.questionId), a.answerIds]));
        return answerPage(ctx, shown, answers, chosen);
      },
    }),

    // The KYC submit answered 403.
    moreInformation: screen({
      input: z.object({}),
      view: (ctx) => <KycMoreInformationScreen t={ctx.t} url={ctx.deps.config.KYC_MORE_INFORMATION_URL} />,
      submit: () => goTo('moreInformation'),
    }),

    // The run found the person's brokerage session ended (customer-information §7: session expired): no Try
    // again, which would start a run with the same dead credentials, but the way to identify again.
    sessionEnded: screen({
      input: z.object({}),
      view: (ctx) => <StepError t={ctx.t} kind="SESSION_EXPIRED_ERROR" />,
      submit: () => goTo('sessionEnded'),
    }),

    // The run ended in the generic error; Try again starts a new run.
    failed: screen({
      input: z.object({}),
      view: (ctx) => <KycFailedScreen t={ctx.t} action={ctx.action} fields={ctx.fields('failed')} />,
      // Try again: a new run (customer-information §4.6).
      async submit(ctx) {
        await startRun(ctx);
        // The run's state decides the screen (resolve); staying on this name keeps nothing for Back.
        return goTo('failed');
      },
    }),
  },
});
