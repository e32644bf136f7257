// The application status page (OnboardingCaseStatus, identification-routing-creation §2, §4 "Status page"), where routing
// sends an open case, and OnboardingTriggerCase. The page lists the person's own tasks, fetched as the person (204: none),
// with a form per task waiting for an answer; a form posts upload, remove or send (caseSubmission.ts). Trigger-case's
// GET only shows a button: its post creates the case (a GET never changes anything upstream).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { Journey } from '../../journey.ts';
import { translatorFor, localeOf, type PageOptions } from '../../pages.ts';
import { answered, byCaller, definePage, json, page, redirect, type Outcome, type PageContext } from '../../pageKit/definePage.ts';
import { endJourney } from '../../endJourney.ts';
import { receiveFiles } from '../../uploads/receiveFiles.ts';
import { asPersonInSession } from '../../upstream/asPersonInSession.ts';
import { UpstreamError } from '../../upstream/http.ts';
import type { AsPerson } from '../../../shared/asPerson.ts';
import type { TaskList, StatusTask } from '../../../shared/contracts/caseStatusContract.ts';
import { stepTwoStatus, tasksNeedingInput, type AnsweredHere } from '../../../shared/caseStatus.ts';
import { countryName } from '../../../shared/countries.ts';
import { routes } from '../../../shared/routes.ts';
import type { CaseTaskState } from '../../journey.ts';
import {
  CaseStatusMessageView,
  CaseStatusPageView,
  TriggerCasePageView,
  type CaseListFailureView,
  type CaseSentView,
  type CaseTaskFormView,
} from '../../../views/pages/CaseStatusPageView.tsx';
import {
  formProblems,
  keepTyped,
  postTarget,
  sendAnswer,
  withDrafts,
  keepDraft,
  saveSession,
  sendFailureOf,
  storeFiles,
  taskFilesOf,
  taskPost,
  taskStateOf,
  type SendFailure,
  type TaskPost,
} from './caseSubmission.ts';

/** What the status page's handlers use of their context: the identified person's journey. */
type Identified = Pick<PageContext<'caseStatus', 'identified'>, 'req' | 'deps' | 'journey'>;

/** The messages of the last post of one task's form, by field (message keys) and for the whole form. */
interface PostOutcome {
  taskId: string;
  errors: Record<string, string>;
  failure?: SendFailure;
}

const statusOfFailure = (failure: SendFailure | undefined) => (failure === 'sessionExpired' ? 401 : failure ? 502 : 422);

/** The person's own tasks, as the person (a 401 refreshes the token once). */
const fetchTasks = (deps: AppDeps, person: AsPerson) => person.call('tasksWithActions', (jwt) => deps.brokerage.tasksWithActions(jwt));

/** The page after a send: `?sent=1` has it say the answer arrived (the GET stores nothing, so the URL carries it). */
const pageQuery = z.object({ sent: z.literal('1').optional().catch(undefined) }).catch({});
const SENT_PAGE = `${routes.caseStatus}?sent=1#case-sent`;

/** This session's record of the answers it sent (shared/caseStatus.ts AnsweredHere). */
const answeredIn =
  (journey: Journey): AnsweredHere =>
  (taskId, actionId) => {
    const kept = journey.caseStatus?.[taskId];
    return kept?.actionId === actionId && kept.sent === true;
  };

interface PageState {
  /** The person's tasks; null when the list could not be had (`listFailure` says why). */
  list: TaskList | null;
  listFailure?: SendFailure;
  outcome?: PostOutcome;
  justSent?: boolean;
  /** The task states to show when not the session's own: a page view takes up the person's drafts without storing them. */
  kept?: Record<string, CaseTaskState>;
}

const storedFilesOf = (state: CaseTaskState | undefined) =>
  (state?.files ?? []).map((f) => ({ attachmentId: f.attachmentId, fileName: f.fileName, ...(f.kind ? { kind: f.kind } : {}) }));

function caseStatusView({ req, deps, journey }: Identified, state: PageState): Outcome {
  const { outcome } = state;
  const t = translatorFor(req, deps);
  const locale = localeOf(req, deps);
  const kept = state.kept ?? journey.caseStatus ?? {};
  const tasks = state.list?.tasks ?? [];
  const others = state.list?.others ?? [];
  const answered = answeredIn(journey);
  const forms: CaseTaskFormView[] = tasksNeedingInput(tasks, answered).map(({ task, actionId }, index) => {
    const taskState = kept[task.nnxTaskId]?.actionId === actionId ? kept[task.nnxTaskId] : undefined;
    const typed = taskState?.typed ?? {};
    const fromTask = task.type === 'RESIDENCY' ? task.taskData : undefined;
    const own = outcome?.taskId === task.nnxTaskId ? outcome : undefined;
    const errors = Object.fromEntries(Object.entries(own?.errors ?? {}).map(([field, key]) => [field, t(key)]));
    if (own?.failure) errors.form = t(`caseStatus.error.${own.failure}`);
    return {
      id: `task-${index + 1}`,
      taskId: task.nnxTaskId,
      actionId,
      type: task.type,
      ...(fromTask ? { countryName: countryName(fromTask.countryCode, locale) } : {}),
      typed: {
        address: typed.address ?? fromTask?.address ?? '',
        zipCode: typed.zipCode ?? fromTask?.zipCode ?? '',
        city: typed.city ?? fromTask?.city ?? '',
        comment: typed.comment ?? '',
      },
      files: storedFilesOf(taskState),
      errors,
      ...(own?.failure === 'sessionExpired' ? { identifyAgainHref: routes.start } : {}),
    };
  });
  // The tasks this session sent, whatever the list says of their action (the brokerage may keep it open a while).
  const sent: CaseSentView[] = tasks.flatMap((task, index) => {
    const taskState = kept[task.nnxTaskId];
    const stillOpen = forms.some((f) => f.taskId === task.nnxTaskId);
    return taskState?.sent && !stillOpen ? [{ id: `sent-${index + 1}`, type: task.type, files: taskState.files.map((f) => f.fileName) }] : [];
  });
  const listFailure: CaseListFailureView | undefined =
    state.listFailure === 'sessionExpired'
      ? { text: t('error.sessionExpired'), href: routes.start, label: t('caseStatus.error.identifyAgain') }
      : state.listFailure
        ? { text: t('caseStatus.tasksFailed.text'), href: routes.caseStatus, label: t('caseStatus.tasksFailed.retry') }
        : undefined;
  return page({
    progress: null,
    status: state.listFailure ? statusOfFailure(state.listFailure) : outcome ? statusOfFailure(outcome.failure) : 200,
    body: (
      <CaseStatusPageView
        t={t}
        stepTwo={state.list ? stepTwoStatus(tasks, others, answered) : null}
        forms={forms}
        others={others.map((_, index) => ({ id: `other-${index + 1}` }))}
        sent={sent}
        justSent={state.justSent === true && sent.length > 0}
        {...(listFailure ? { listFailure } : {})}
        taskAction={routes.caseStatusTask}
        returnAction={routes.caseStatusReturn}
      />
    ),
  });
}

/** A page of one message (keys) and one way on: a post whose form cannot be shown again. */
function messagePage({ req, deps }: Identified, status: number, message: { title: string; text?: string }, link: { href: string; label: string }): Outcome {
  const t = translatorFor(req, deps);
  const body = (
    <CaseStatusMessageView title={t(message.title)} {...(message.text ? { text: t(message.text) } : {})} link={{ href: link.href, label: t(link.label) }} />
  );
  return page({ progress: null, status, body } satisfies PageOptions);
}

const backToPage = { href: routes.caseStatus, label: 'caseStatus.error.back' };

/** What the island shows under a file it could not upload or remove. */
const islandRefusal = (ctx: Identified, messageKey: string, status: number): Outcome => json({ error: translatorFor(ctx.req, ctx.deps)(messageKey) }, status);

/**
 * The page, whose task list may fail: said on the page with Try again. identification-routing-creation §2 redirects to
 * Onboarding instead, which routes an open case straight back here, a loop a browser ends with "too many redirects".
 */
const caseStatusPage = definePage({
  route: 'caseStatus',
  access: 'identified',
  session: 'reads',
  get: async (ctx) => {
    const { req, deps, journey } = ctx;
    const justSent = pageQuery.parse(req.query).sent === '1';
    try {
      const list = await fetchTasks(deps, asPersonInSession(deps.brokerage, journey, deps.logger));
      const kept = await withDrafts(
        deps,
        journey,
        list.tasks.map((t) => t.nnxTaskId),
      );
      return caseStatusView(ctx, { list, justSent, kept });
    } catch (err) {
      const listFailure = sendFailureOf(err);
      deps.logger.warn({ failure: listFailure, status: err instanceof UpstreamError ? err.status : undefined }, 'status page: task list failed');
      return caseStatusView(ctx, { list: null, listFailure });
    }
  },
});

/** What an intent of a task's post works on: the person, their list, the task the post names and its answer's state. */
interface TaskScreen {
  ctx: Identified;
  person: AsPerson;
  list: TaskList;
  task: StatusTask;
  state: CaseTaskState;
}

/** A post whose task list could not be read: the form cannot be shown again, nor what was typed kept (the task is not known). */
function listFailedOnPost(ctx: Identified, err: unknown): Outcome {
  const failure = sendFailureOf(err);
  ctx.deps.logger.warn({ failure, status: err instanceof UpstreamError ? err.status : undefined }, 'status page: task list failed on a post');
  const tryAgain = { title: 'customerInformation.error.TRY_AGAIN_ERROR.title', text: 'customerInformation.error.TRY_AGAIN_ERROR.text' };
  const form =
    failure === 'sessionExpired'
      ? messagePage(ctx, 401, { title: 'error.sessionExpired' }, { href: routes.start, label: 'caseStatus.error.identifyAgain' })
      : messagePage(ctx, 502, tryAgain, backToPage);
  return byCaller(islandRefusal(ctx, `caseStatus.error.${failure}`, statusOfFailure(failure)), form);
}

/** An upload or send that failed upstream: JSON to the island, else the form again with what was kept and why. */
function failedUpstream({ ctx, list, task }: TaskScreen, err: unknown, errors: Record<string, string>): Outcome {
  const failure = sendFailureOf(err);
  ctx.deps.logger.warn({ failure, status: err instanceof UpstreamError ? err.status : undefined, taskType: task.type }, 'status page: answer not sent');
  const form = caseStatusView(ctx, { list, outcome: { taskId: task.nnxTaskId, errors, failure } });
  return byCaller(islandRefusal(ctx, `caseStatus.error.${failure}`, statusOfFailure(failure)), form);
}

/** The message key of files that did not all arrive. */
const receiveProblemKey = (problem: 'size' | 'invalid') => (problem === 'size' ? 'fileUpload.error.tooBig' : 'fileUpload.error.failed');

/** Upload (the island, a file at a time): the task's stored files, or why the file was refused (JSON). */
async function upload(screen: TaskScreen): Promise<Outcome> {
  const { ctx, person, task, state } = screen;
  const received = taskFilesOf(ctx.req);
  let refusal = received.problem ? receiveProblemKey(received.problem) : undefined;
  try {
    const { refused } = await storeFiles(ctx.deps, person, task, state, received.files);
    refusal = refused[0]?.messageKey ?? refusal;
  } catch (err) {
    return failedUpstream(screen, err, refusal ? { files: refusal } : {});
  }
  if (refusal || received.files.length === 0) return islandRefusal(ctx, refusal ?? 'fileUpload.error.noFile', 422);
  return json({ files: storedFilesOf(state) });
}

/** Remove: the answer forgets the file (there is no delete call upstream); the island gets the files left, else the page. */
function remove({ ctx, list, state }: TaskScreen, attachmentId: string): Outcome {
  state.files = state.files.filter((f) => f.attachmentId !== attachmentId);
  return byCaller(json({ files: storedFilesOf(state) }), caseStatusView(ctx, { list }));
}

/** Send: the files posted with it stored, the form checked, then the answer sent once (caseSubmission.ts sendAnswer). */
async function send(screen: TaskScreen): Promise<Outcome> {
  const { ctx, person, list, task, state } = screen;
  const received = taskFilesOf(ctx.req);
  const errors: Record<string, string> = received.problem ? { files: receiveProblemKey(received.problem) } : {};
  try {
    const { refused } = await storeFiles(ctx.deps, person, task, state, received.files);
    if (refused[0]) errors.files = refused[0].messageKey;
    const problems = { ...formProblems(task, state), ...errors };
    if (Object.keys(problems).length > 0) return caseStatusView(ctx, { list, outcome: { taskId: task.nnxTaskId, errors: problems } });
    const checkpoint = async () => {
      await saveSession(ctx.req);
      await keepDraft(ctx.deps, ctx.journey, task.nnxTaskId);
    };
    await sendAnswer(checkpoint, ctx.deps, person, task, state);
  } catch (err) {
    return failedUpstream(screen, err, errors);
  }
  return redirect(SENT_PAGE);
}

/** A post of a task's form: the task it names in the person's own list (the stale-post rule), then its intent. */
async function answerTaskPost(ctx: Identified, post: TaskPost): Promise<Outcome> {
  const { deps, journey } = ctx;
  const person = asPersonInSession(deps.brokerage, journey, deps.logger);
  let list: TaskList;
  try {
    list = await fetchTasks(deps, person);
  } catch (err) {
    return listFailedOnPost(ctx, err);
  }
  journey.caseStatus = await withDrafts(
    deps,
    journey,
    list.tasks.map((t) => t.nnxTaskId),
  );
  const target = postTarget(list.tasks, post, journey.caseStatus?.[post.taskId]);
  switch (target.kind) {
    case 'notYours':
      deps.logger.warn('status page: a post for a task that is not among the person’s open tasks refused');
      return byCaller(islandRefusal(ctx, 'caseStatus.error.notYours', 403), messagePage(ctx, 403, { title: 'caseStatus.error.notYours' }, backToPage));
    case 'stale':
      // From a page shown before the task's action changed: the page as it is now, nothing kept from the post.
      return byCaller(islandRefusal(ctx, 'caseStatus.error.notYours', 409), redirect(routes.caseStatus));
    case 'answeredElsewhere':
      taskStateOf(journey, post.taskId, post.actionId).sent = true;
      await keepDraft(deps, journey, post.taskId);
      return byCaller(islandRefusal(ctx, 'caseStatus.sent.confirmation', 409), redirect(SENT_PAGE));
    case 'sent':
      await keepDraft(deps, journey, post.taskId);
      return byCaller(islandRefusal(ctx, 'caseStatus.sent.confirmation', 409), redirect(SENT_PAGE));
    case 'open':
      break;
  }
  const state = taskStateOf(journey, post.taskId, post.actionId);
  keepTyped(state, post);
  const screen: TaskScreen = { ctx, person, list, task: target.task, state };
  const outcome = await (post.intent === 'upload' ? upload(screen) : post.intent === 'remove' ? remove(screen, post.attachmentId) : send(screen));
  // What was typed and uploaded outlives the session until it is sent (identifying again finds it).
  await keepDraft(deps, journey, post.taskId);
  return outcome;
}

/** A task's form: under the session lock, so an answer is sent once however often it is posted (two tabs, a double click). */
const caseStatusTaskPage = definePage({
  route: 'caseStatusTask',
  access: 'identified',
  session: 'writes',
  post: {
    receive: receiveFiles,
    body: taskPost,
    // Not a form of a task: the page.
    invalid: () => redirect(routes.caseStatus),
    handle: answerTaskPost,
  },
});

/**
 * Return to site ends the brokerage sessions and ours (server/endJourney.ts) and goes to the bank site's home (HOME_URL),
 * not ours, which would only lead back to the start. Anyone may leave: a session that ended on the page has nothing to end.
 */
const caseStatusReturnPage = definePage({
  route: 'caseStatusReturn',
  access: 'anyone',
  session: 'writes',
  post: {
    body: z.unknown(),
    handle: async ({ req, res, deps }) => {
      await endJourney(req, res, deps, deps.config.HOME_URL);
      return answered;
    },
  },
});

/** OnboardingTriggerCase: the link lands on a button (the GET reads only); for the person's own prospect only. */
const triggerCasePage = definePage({
  route: 'triggerCase',
  access: 'ownsProspect',
  session: 'reads',
  get: ({ req, deps, params }) =>
    page({ progress: null, body: <TriggerCasePageView t={translatorFor(req, deps)} action={routes.triggerCase(params.prospectId)} /> }),
});

/**
 * Creates the case once per application, whatever the clicks, tabs or web processes (server/infra/caseTriggers.ts: one
 * call at a time, one Idempotency-Key, none once answered).
 */
async function triggerCaseOnce(deps: AppDeps, journey: Journey, prospectId: string): Promise<void> {
  const turn = await deps.caseTriggers.claim(prospectId, randomUUID(), deps.config.REQUEST_DEADLINE_MS);
  if (!turn.call) return void deps.logger.info({ reason: turn.reason }, 'trigger-case not sent again');
  const person = asPersonInSession(deps.brokerage, journey, deps.logger);
  try {
    await person.call('triggerCase', (jwt) => deps.brokerage.triggerCase(jwt, prospectId, turn.attempt));
  } catch (err) {
    await deps.caseTriggers.release(prospectId);
    throw err;
  }
  await deps.caseTriggers.done(prospectId);
}

/** The button's post: a failed case creation is only logged (identification-routing-creation §4 "Status page"); the status page follows either way. */
const triggerCasePost = definePage({
  route: 'triggerCase',
  access: 'ownsProspect',
  session: 'writes',
  post: {
    body: z.unknown(),
    handle: async ({ deps, journey, params: { prospectId } }) => {
      await triggerCaseOnce(deps, journey, prospectId).catch((err: unknown) =>
        deps.logger.error({ status: err instanceof UpstreamError ? err.status : undefined }, 'trigger-case failed'),
      );
      return redirect(routes.caseStatus);
    },
  },
});

export const caseStatusPages = [caseStatusPage, caseStatusTaskPage, caseStatusReturnPage, triggerCasePage, triggerCasePost];
