// The KYC step's runs (customer-information §4.6): starting one, whose answer session the worker starts
// (workers/kycPreparationJob.ts), and again when the answer session refuses the page shown as out of step with it
// (shared/kyc.ts isOutOfStepRefusal: a next our session never saved — the process killed, a refused save, a timeout
// after the brokerage acted — or the answer session gone). Every Continue would be refused again for good; a new run
// with the person's answers kept (its first page says so, kyc.answersKept) is the way on.
import type { StepContext } from '../stepModule.ts';
import { localeOf } from '../../../pages.ts';
import { runCredentialsOf, type KycProgress } from '../../../journey.ts';
import type { UpstreamError } from '../../../upstream/http.ts';
import { enqueueKycPreparation } from '../../../infra/kycJobs.ts';
import { isOutOfStepRefusal } from '../../../../shared/kyc.ts';
import { withGivenTexts } from '../../../../shared/answersSummarySections.ts';
import type { AnswerSessionAnswers, AnswerSessionPage } from '../../../../shared/contracts/kycContract.ts';
import type { StepRelatedData } from '../../../../shared/contracts/savedApplicationContract.ts';

/** What starting a run needs of the step's context (any screen's). */
export type RunContext = Pick<StepContext<string>, 'req' | 'deps' | 'journey' | 'ci' | 'prospectId'>;

export const runIdOf = (run: number) => `kyc-${run}`;
export const kycProgressOf = (ctx: Pick<RunContext, 'ci'>): KycProgress | undefined => ctx.ci.answers?.kyc;

/** What a new run takes over from the last: the answers given, and whether it restarts one out of step. */
type Kept = Pick<KycProgress, 'given' | 'givenTexts' | 'restarted'>;

/**
 * The next run's number: past this session's own and past the prospect's latest run (another browser of the person may
 * have started runs), so no two runs share a runId and the state store takes the new one's states.
 */
async function nextRun(ctx: RunContext): Promise<number> {
  const latest = await ctx.deps.kycStates.latest(ctx.prospectId);
  const theirs = Number(/^kyc-(\d{1,15})$/.exec(latest?.runId ?? '')?.[1] ?? 0);
  return Math.max(kycProgressOf(ctx)?.run ?? 0, theirs) + 1;
}

/**
 * What the saved application holds of the KYC step (its related data): the answers given, with their texts for the
 * summary, and the page of the answer session the brokerage carries on, shown as it is (carriedOn) with the pages
 * before it behind Back. Undefined when nothing of it was answered: the step starts a run as for anyone.
 */
export function savedKycProgress(data: StepRelatedData<'KYC_STEP'>): KycProgress | undefined {
  const given = Object.fromEntries(data.answers.map((a) => [String(a.questionId), [...a.answerIds]]));
  const givenTexts = data.answers.flatMap((a) => (a.texts ? [{ questionId: a.questionId, question: a.texts.question, answers: [...a.texts.answers] }] : []));
  const progress: KycProgress = { run: 0, phase: 'questions', waitingSince: Date.now(), pagesAnswered: data.pagesAnswered, given, givenTexts };
  // An open session, even at its first page (another browser's run started it): the same session, not a second one.
  if (!data.submitted && data.answerSessionId && data.answerSessionPage) {
    return { ...progress, answerSessionId: data.answerSessionId, page: data.answerSessionPage, carriedOn: true };
  }
  return data.answers.length > 0 || data.questionnaireAnswered || data.submitted ? progress : undefined;
}

/**
 * Entering the step: a page the saved application carries on is shown as it is (it takes a run number, for the risk
 * phase after its last page); otherwise a run starts, with the saved answers kept.
 */
export async function enterStep(ctx: RunContext): Promise<void> {
  const kyc = kycProgressOf(ctx);
  if (kyc?.carriedOn) {
    kyc.run = await nextRun(ctx);
    delete kyc.carriedOn;
    return;
  }
  await startRun(ctx, kyc?.run === 0 ? { ...(kyc.given ? { given: kyc.given } : {}), ...(kyc.givenTexts ? { givenTexts: kyc.givenTexts } : {}) } : {});
}

/** Starts the next run: the worker starts the answer session (customer-information §4.6) with the person's credentials, sealed. */
export async function startRun(ctx: RunContext, kept: Kept = {}): Promise<void> {
  const run = await nextRun(ctx);
  await enqueueKycPreparation(
    { queue: ctx.deps.queue, credentials: ctx.deps.creationCredentials },
    { prospectId: ctx.prospectId, runId: runIdOf(run), locale: localeOf(ctx.req, ctx.deps), credentials: runCredentialsOf(ctx.journey) },
  );
  // Counted once enqueued: a failed start leaves the step able to start it again.
  (ctx.ci.answers ??= {}).kyc = { run, phase: 'questions', waitingSince: Date.now(), pagesAnswered: 0, ...kept };
  ctx.ci.visited = [];
  delete ctx.ci.screen;
}

/**
 * A refused next or previous: when the refusal says the page shown is out of step with the answer session, a new
 * run starts with the answers kept, `posted` (the page's answers just sent, with the page they answer) among them,
 * and true is answered (the step then shows the new run's loader and its first page). False when the refusal is
 * anything else (the caller shows the API error banner, as for an outage), or when this run is itself such a restart
 * none of whose pages has been taken: the banner too, and the mark is dropped, so the person's next click may
 * restart once more, but no restart follows another by itself.
 */
export async function restartedOutOfStep(
  ctx: RunContext,
  err: UpstreamError,
  call: 'next' | 'previous',
  posted?: { page: AnswerSessionPage; answers: AnswerSessionAnswers },
): Promise<boolean> {
  const kyc = kycProgressOf(ctx);
  if (!kyc || !isOutOfStepRefusal(err.status, err.body)) return false;
  const logged = { status: err.status, call, step: 'KYC_STEP', run: kyc.run };
  if (kyc.restarted) {
    delete kyc.restarted;
    ctx.deps.logger.warn(logged, 'kyc answer session out of step again right after a restart; the API error banner, no restart without a click');
    return false;
  }
  ctx.deps.logger.warn(logged, 'kyc answer session out of step with the page shown; a new run starts with the answers kept');
  const answers = posted?.answers ?? [];
  const given = { ...kyc.given, ...Object.fromEntries(answers.map((a) => [String(a.questionId), a.answerIds])) };
  // The texts too: if the new run's start finds the questionnaire answered (the lost next was the last page's),
  // milestone three's summary lists what was posted.
  const givenTexts = posted ? withGivenTexts(kyc.givenTexts, posted.page, answers) : kyc.givenTexts;
  await startRun(ctx, { given, ...(givenTexts ? { givenTexts } : {}), restarted: true });
  return true;
}
