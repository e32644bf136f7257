// The application status page, OnboardingCaseStatus (identification-routing-creation §2 "Application status page", §4
// "Status page"), and OnboardingTriggerCase. Routing sends a person with an open case here (ONBOARDING_OPEN_CASE). The
// page fetches the person's own tasks with their own credentials (server/upstream/asPersonInSession.ts; 204 = none).
// A failing fetch is said on this page, with Try again: the spec redirects to Onboarding, but Onboarding routes an
// identified person with an open case straight back here, a loop a browser ends with "too many redirects". A task this
// build cannot answer (a type or data the contract does not describe) is named, with "we will contact you". An answer
// sent is shown as sent from the session's record, whatever the brokerage's list says of its action. Every post runs
// under the session lock (server/app.ts), so a task's answer is sent once however often it is posted
// (server/stages/caseStatus/caseSubmission.ts); the page's GET only reads.
//
// OnboardingTriggerCase (route parameter prospectId) creates a case, so its GET only shows a button whose POST creates it:
// a GET must never change anything upstream (README "Security choices"; a link prefetched or opened twice would otherwise
// create cases). It acts only for the identified person's own prospect (the session's), else goes to Onboarding; it
// reaches the brokerage once per application, whatever the clicks, tabs or web processes (server/infra/caseTriggers.ts:
// one call at a time, one Idempotency-Key, none once answered); a failed case creation is only logged, and the status
// page follows either way. The journey that leads there: the customer-creation
// screen's outcomes where the application waits for the bank (server/stages/customerCreation/creationPage.tsx).
import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../deps.ts';
import { ownedJourney, sendPage, translatorFor, localeOf } from '../../pages.ts';
import { routePatterns, routes } from '../../../shared/routes.ts';
import { endJourney } from '../../endJourney.ts';
import { receiveFiles } from '../../uploads/receiveFiles.ts';
import { asPersonInSession } from '../../upstream/asPersonInSession.ts';
import type { AsPerson } from '../../../shared/asPerson.ts';
import { UpstreamError } from '../../upstream/http.ts';
import { z } from 'zod';
import type { TaskList } from '../../../shared/contracts/caseStatusContract.ts';
import { stepTwoStatus, tasksNeedingInput, type AnsweredHere } from '../../../shared/caseStatus.ts';
import { SessionEnded } from '../../../shared/asPerson.ts';
import { countryName } from '../../../shared/countries.ts';
import type { Journey } from '../../journey.ts';
import {
  CaseStatusPageView,
  TriggerCasePageView,
  type CaseListFailureView,
  type CaseSentView,
  type CaseTaskFormView,
} from '../../../views/pages/CaseStatusPageView.tsx';
import {
  formProblems,
  keepTyped,
  ownTaskFor,
  taskFilesOf,
  sendAnswer,
  sendFailureOf,
  storeFiles,
  taskPost,
  taskStateOf,
  type SendFailure,
} from './caseSubmission.ts';

/** The messages of the last post of one task's form, by field (message keys) and for the whole form. */
interface PostOutcome {
  taskId: string;
  errors: Record<string, string>;
  failure?: SendFailure;
}

const statusOfFailure = (failure: SendFailure | undefined) => (failure === 'sessionExpired' ? 401 : failure ? 502 : 422);

/** The identified person's journey, or null (no identification in this session). */
const identifiedJourney = (req: Request): Journey | null => (req.session?.journey?.jwt ? req.session.journey : null);

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
}

function renderPage(req: Request, res: Response, deps: AppDeps, journey: Journey, page: PageState): void {
  const { outcome } = page;
  const t = translatorFor(req, deps);
  const locale = localeOf(req, deps);
  const kept = journey.caseStatus ?? {};
  const tasks = page.list?.tasks ?? [];
  const others = page.list?.others ?? [];
  const answered = answeredIn(journey);
  const forms: CaseTaskFormView[] = tasksNeedingInput(tasks, answered).map(({ task, actionId }, index) => {
    const state = kept[task.nnxTaskId]?.actionId === actionId ? kept[task.nnxTaskId] : undefined;
    const typed = state?.typed ?? {};
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
      files: (state?.files ?? []).map((f) => ({ attachmentId: f.attachmentId, fileName: f.fileName, ...(f.kind ? { kind: f.kind } : {}) })),
      errors,
      ...(own?.failure === 'sessionExpired' ? { identifyAgainHref: routes.start } : {}),
    };
  });
  // The tasks this session sent, whatever the list says of their action (the brokerage may keep it open a while).
  const sent: CaseSentView[] = tasks.flatMap((task, index) => {
    const state = kept[task.nnxTaskId];
    const stillOpen = forms.some((f) => f.taskId === task.nnxTaskId);
    return state?.sent && !stillOpen ? [{ id: `sent-${index + 1}`, type: task.type, files: state.files.map((f) => f.fileName) }] : [];
  });
  const listFailure: CaseListFailureView | undefined =
    page.listFailure === 'sessionExpired'
      ? { text: t('error.sessionExpired'), href: routes.start, label: t('caseStatus.error.identifyAgain') }
      : page.listFailure
        ? { text: t('caseStatus.tasksFailed.text'), href: routes.caseStatus, label: t('caseStatus.tasksFailed.retry') }
        : undefined;
  sendPage(req, res, deps, {
    progress: null,
    status: page.listFailure ? statusOfFailure(page.listFailure) : outcome ? statusOfFailure(outcome.failure) : 200,
    body: (
      <CaseStatusPageView
        t={t}
        stepTwo={page.list ? stepTwoStatus(tasks, others, answered) : null}
        forms={forms}
        others={others.map((_, index) => ({ id: `other-${index + 1}` }))}
        sent={sent}
        justSent={page.justSent === true && sent.length > 0}
        {...(listFailure ? { listFailure } : {})}
        taskAction={routes.caseStatusTask}
        returnAction={routes.caseStatusReturn}
      />
    ),
  });
}

/** A page of one message and one way on (a refused or failed post whose form cannot be shown). */
function messagePage(
  req: Request,
  res: Response,
  deps: AppDeps,
  status: number,
  message: { title: string; text?: string },
  link: { href: string; label: string },
): void {
  const t = translatorFor(req, deps);
  sendPage(req, res, deps, {
    progress: null,
    status,
    body: (
      <section className="result result--error" aria-labelledby="message-title">
        <h1 id="message-title">{t(message.title)}</h1>
        {message.text && <p>{t(message.text)}</p>}
        <p>
          <a className="btn" href={link.href}>
            {t(link.label)}
          </a>
        </p>
      </section>
    ),
  });
}

const wantsJson = (req: Request) => req.accepts(['html', 'json']) === 'json';
const storedFilesOf = (journey: Journey, taskId: string) =>
  (journey.caseStatus?.[taskId]?.files ?? []).map((f) => ({ attachmentId: f.attachmentId, fileName: f.fileName, ...(f.kind ? { kind: f.kind } : {}) }));

/** A post of a task's form: upload (the island, one file), remove a file, or send the answer. */
async function handleTaskPost(req: Request, res: Response, deps: AppDeps): Promise<void> {
  const journey = identifiedJourney(req);
  if (!journey) return void res.redirect(303, routes.start);
  await receiveFiles(req, res);
  const received = taskFilesOf(req);
  const t = translatorFor(req, deps);
  const post = taskPost.safeParse(req.body);
  if (!post.success) return void res.redirect(303, routes.caseStatus);
  const person = asPersonInSession(deps.brokerage, journey, deps.logger);
  let list: TaskList;
  try {
    list = await fetchTasks(deps, person);
  } catch (err) {
    // The form cannot be shown again without the list: the person is told why, and what to do.
    const failure = sendFailureOf(err);
    deps.logger.warn({ failure, status: err instanceof UpstreamError ? err.status : undefined }, 'status page: task list failed on a post');
    if (wantsJson(req)) return void res.status(statusOfFailure(failure)).json({ error: t(`caseStatus.error.${failure}`) });
    // What was typed cannot be kept here (the task is not known to be the person's): these texts do not say it was.
    if (failure === 'sessionExpired') {
      return messagePage(req, res, deps, 401, { title: 'error.sessionExpired' }, { href: routes.start, label: 'caseStatus.error.identifyAgain' });
    }
    const tryAgain = { title: 'customerInformation.error.TRY_AGAIN_ERROR.title', text: 'customerInformation.error.TRY_AGAIN_ERROR.text' };
    return messagePage(req, res, deps, 502, tryAgain, { href: routes.caseStatus, label: 'caseStatus.error.back' });
  }
  const { taskId, actionId } = post.data;
  const tasks = list.tasks;
  const previous = journey.caseStatus?.[taskId];
  const own = ownTaskFor(tasks, post.data, previous);
  if (!own) {
    // Sent already (a double click, a second tab): the page shows it sent. Anyone else's or an unknown task: refused.
    if (previous?.actionId === actionId && previous.sent) return void res.redirect(303, SENT_PAGE);
    deps.logger.warn('status page: a post for a task that is not among the person’s open tasks refused');
    if (wantsJson(req)) return void res.status(403).json({ error: t('caseStatus.error.notYours') });
    return messagePage(req, res, deps, 403, { title: 'caseStatus.error.notYours' }, { href: routes.caseStatus, label: 'caseStatus.error.back' });
  }
  const { task } = own;
  const state = taskStateOf(journey, taskId, actionId);
  if (own.answered) {
    // The person's own action, answered already (sent from another browser): what they wanted is done.
    state.sent = true;
    if (wantsJson(req)) return void res.status(409).json({ error: t('caseStatus.sent.confirmation') });
    return void res.redirect(303, SENT_PAGE);
  }
  if (state.sent) return void res.redirect(303, SENT_PAGE);
  keepTyped(state, post.data);
  const removed = post.data.remove ?? (post.data.intent === 'remove' ? post.data.attachmentId : undefined);
  if (removed !== undefined) {
    // Removing only forgets the file for this answer (there is no delete call upstream).
    state.files = state.files.filter((f) => f.attachmentId !== removed);
    if (wantsJson(req)) return void res.json({ files: storedFilesOf(journey, taskId) });
    return renderPage(req, res, deps, journey, { list });
  }
  const errors: Record<string, string> = {};
  try {
    if (received.problem) errors.files = received.problem === 'size' ? 'fileUpload.error.tooBig' : 'fileUpload.error.failed';
    const { refused } = await storeFiles(deps, person, task, state, received.files);
    if (refused.length > 0) errors.files = refused[0]!.messageKey;
    if (post.data.intent === 'upload') {
      if (errors.files || received.files.length === 0) return void res.status(422).json({ error: t(errors.files ?? 'fileUpload.error.noFile') });
      return void res.json({ files: storedFilesOf(journey, taskId) });
    }
    Object.assign(errors, { ...formProblems(task, state), ...errors });
    if (Object.keys(errors).length > 0) return renderPage(req, res, deps, journey, { list, outcome: { taskId, errors } });
    await sendAnswer(req, deps, person, task, state);
  } catch (err) {
    const failure = sendFailureOf(err);
    deps.logger.warn({ failure, status: err instanceof UpstreamError ? err.status : undefined, taskType: task.type }, 'status page: answer not sent');
    if (wantsJson(req)) return void res.status(statusOfFailure(failure)).json({ error: t(`caseStatus.error.${failure}`) });
    return renderPage(req, res, deps, journey, { list, outcome: { taskId, errors, failure } });
  }
  res.redirect(303, SENT_PAGE);
}

export function caseStatusRoutes(deps: AppDeps): Router {
  const router = Router();

  router.get(routePatterns.caseStatus, async (req, res, next) => {
    const journey = identifiedJourney(req);
    if (!journey) return res.redirect(303, routes.start);
    const justSent = pageQuery.parse(req.query).sent === '1';
    let page: PageState;
    try {
      page = { list: await fetchTasks(deps, asPersonInSession(deps.brokerage, journey, deps.logger)), justSent };
    } catch (err) {
      // identification-routing-creation §2 redirects to Onboarding here; said on this page instead (see the top).
      const listFailure = err instanceof SessionEnded ? 'sessionExpired' : sendFailureOf(err);
      deps.logger.warn({ failure: listFailure, status: err instanceof UpstreamError ? err.status : undefined }, 'status page: task list failed');
      page = { list: null, listFailure };
    }
    try {
      renderPage(req, res, deps, journey, page);
    } catch (err) {
      next(err);
    }
  });

  router.post(routePatterns.caseStatusTask, (req, res, next) => {
    handleTaskPost(req, res, deps).catch(next);
  });

  // Return to site logs out of the brokerage sessions and goes to / (server/endJourney.ts): the bank site's home
  // (HOME_URL), not ours, which would only lead back to the start page.
  router.post(routePatterns.caseStatusReturn, async (req, res, next) => {
    await endJourney(req, res, deps, deps.config.HOME_URL).catch(next);
  });

  router.get(routePatterns.triggerCase, (req, res) => {
    const prospectId = req.params.prospectId ?? '';
    if (!ownedJourney(req, prospectId)) return res.redirect(303, routes.start);
    sendPage(req, res, deps, { progress: null, body: <TriggerCasePageView t={translatorFor(req, deps)} action={routes.triggerCase(prospectId)} /> });
  });

  router.post(routePatterns.triggerCase, async (req, res) => {
    const prospectId = req.params.prospectId ?? '';
    const journey = ownedJourney(req, prospectId);
    if (!journey) return res.redirect(303, routes.start);
    try {
      // Once per application (server/infra/caseTriggers.ts): a request finding the case made, or being made, only goes on.
      const turn = await deps.caseTriggers.claim(prospectId, randomUUID(), deps.config.REQUEST_DEADLINE_MS);
      if (turn.call) {
        const person = asPersonInSession(deps.brokerage, journey, deps.logger);
        try {
          await person.call('triggerCase', (jwt) => deps.brokerage.triggerCase(jwt, prospectId, turn.attempt));
        } catch (err) {
          await deps.caseTriggers.release(prospectId);
          throw err;
        }
        await deps.caseTriggers.done(prospectId);
      } else {
        deps.logger.info({ reason: turn.reason }, 'trigger-case not sent again');
      }
    } catch (err) {
      // identification-routing-creation §4 "Status page": a failed case creation is only logged.
      deps.logger.error({ status: err instanceof UpstreamError ? err.status : undefined }, 'trigger-case failed');
    }
    res.redirect(303, routes.caseStatus);
  });

  return router;
}
