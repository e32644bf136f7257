// The application status page (identification-routing-creation §2 "Application status page", §5): "Your application has
// been received", the three steps (step two In progress, or Pending while an action is open), "We need additional
// information" with one form per task with an open action, the tasks sent, and Return to site. Each form is a plain
// multipart post (server/stages/caseStatus/caseStatusPage.tsx); its files and Send are views/components/CaseStatusFiles.tsx.
// Also the OnboardingTriggerCase page: its button posts, so a GET never creates a case.
import { Fragment } from 'react';
import type { Translate } from '../../shared/i18n.ts';
import type { StepTwoStatus } from '../../shared/caseStatus.ts';
import type { TaskType } from '../../shared/contracts/caseStatusContract.ts';
import { CsrfField, useCsrfToken, withCsrfQuery } from '../components/CsrfField.tsx';
import { ErrorSummary, Field, type SummaryLine } from '../components/ErrorSummary.tsx';
import { Island } from '../components/Island.tsx';
import { CaseStatusFiles, type CaseFileSlot, type CaseStoredFile } from '../components/CaseStatusFiles.tsx';
import { FileName } from '../components/FileName.tsx';
import { MAX_FILE_BYTES } from '../../shared/files.ts';

/** A task's form: what it answers, what was typed and stored, and the messages of the last post (translated). */
export interface CaseTaskFormView {
  /** Unique on the page, safe in an element id. */
  id: string;
  taskId: string;
  actionId: string;
  type: TaskType;
  /** A residency task's country, named in the page's language (read-only). */
  countryName?: string;
  typed: { address: string; zipCode: string; city: string; comment: string };
  files: CaseStoredFile[];
  /** Field errors by field (address, zipCode, city, comment, files), and `form` for the whole form (a failed send). */
  errors: Record<string, string>;
  /** With a session that has ended: the link to identify again. */
  identifyAgainHref?: string;
}

export interface CaseSentView {
  id: string;
  type: TaskType;
  files: string[];
}

/** The task list could not be had: what to say, and the one way on (try again, or identify again). */
export interface CaseListFailureView {
  text: string;
  href: string;
  label: string;
}

export interface CaseStatusPageViewProps {
  t: Translate;
  /** Step two's status; null when the task list could not be had. */
  stepTwo: StepTwoStatus | null;
  forms: CaseTaskFormView[];
  /** The tasks the page cannot answer here (a type or data it does not know): named, with "we will contact you". */
  others: { id: string }[];
  sent: CaseSentView[];
  /** Right after a send: say that it arrived. */
  justSent: boolean;
  listFailure?: CaseListFailureView;
  taskAction: string;
  returnAction: string;
}

const ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';
const proofKinds = ['housingContract', 'bankStatement', 'officialTaxDocument'] as const;

function slotsOf(t: Translate, form: CaseTaskFormView): CaseFileSlot[] {
  if (form.type !== 'RESIDENCY') return [{ name: 'files', label: t('caseStatus.form.attachments') }];
  return proofKinds.map((kind) => ({ name: `file_${kind}`, label: t(`caseStatus.proof.${kind}`), kind }));
}

function TaskForm({ t, form, action }: { t: Translate; form: CaseTaskFormView; action: string }) {
  const csrf = useCsrfToken();
  const field = (name: string) => `${form.id}-${name}`;
  const lines: SummaryLine[] = Object.entries(form.errors)
    .filter(([name]) => name !== 'form')
    .map(([name, message]) => [field(name), message] as const);
  const residency = form.type === 'RESIDENCY';
  return (
    <section className="case-task" aria-labelledby={field('title')}>
      <h3 id={field('title')}>{t(`caseStatus.task.${form.type}.title`)}</h3>
      <p>{t(`caseStatus.task.${form.type}.text`)}</p>
      {form.errors.form && (
        <div className="error-summary" role="alert" id={field('form-error')}>
          <p>{form.errors.form}</p>
          {form.identifyAgainHref && (
            <p>
              <a href={form.identifyAgainHref}>{t('caseStatus.error.identifyAgain')}</a>
            </p>
          )}
        </div>
      )}
      <ErrorSummary t={t} errors={lines} />
      <form method="post" action={withCsrfQuery(action, csrf)} encType="multipart/form-data" noValidate>
        <CsrfField />
        <input type="hidden" name="taskId" value={form.taskId} />
        <input type="hidden" name="actionId" value={form.actionId} />
        {/* The form's default button: Enter in a field sends, never a file's Remove (the first submit button otherwise). */}
        <button type="submit" name="intent" value="send" hidden tabIndex={-1}>
          {t('caseStatus.form.send')}
        </button>
        {residency ? (
          <>
            {(['address', 'zipCode', 'city'] as const).map((name) => (
              <Field key={name} id={field(name)} label={t(`residency.address.${name}`)} error={form.errors[name]}>
                {(described) => (
                  <input
                    id={field(name)}
                    name={name}
                    type="text"
                    required
                    autoComplete={name === 'address' ? 'address-line1' : name === 'zipCode' ? 'postal-code' : 'address-level2'}
                    defaultValue={form.typed[name]}
                    {...described}
                  />
                )}
              </Field>
            ))}
            <Field id={field('country')} label={t('residency.address.country')}>
              {() => <input id={field('country')} name="country" type="text" readOnly value={form.countryName ?? ''} />}
            </Field>
            <h4>{t('caseStatus.proof.title')}</h4>
            <p>{t('caseStatus.proof.text')}</p>
          </>
        ) : (
          <Field id={field('comment')} label={t('caseStatus.form.comment')} error={form.errors.comment}>
            {(described) => <textarea id={field('comment')} name="comment" rows={3} defaultValue={form.typed.comment} {...described} />}
          </Field>
        )}
        <Island
          name="caseStatusFiles"
          component={CaseStatusFiles}
          props={{
            id: form.id,
            action,
            taskId: form.taskId,
            actionId: form.actionId,
            slots: slotsOf(t, form),
            files: form.files,
            error: form.errors.files ?? null,
            texts: {
              hint: t('fileUpload.hint'),
              uploaded: t('fileUpload.uploaded'),
              remove: t('fileUpload.remove'),
              uploading: t('fileUpload.uploading'),
              tooBig: t('fileUpload.error.tooBig'),
              failed: t('fileUpload.error.failed'),
              send: t('caseStatus.form.send'),
            },
            maxBytes: MAX_FILE_BYTES,
            accept: ACCEPT,
          }}
        />
      </form>
    </section>
  );
}

export function CaseStatusPageView({ t, stepTwo, forms, others, sent, justSent, listFailure, taskAction, returnAction }: CaseStatusPageViewProps) {
  return (
    <section aria-labelledby="case-title" className="case-status">
      <h1 id="case-title">{t('caseStatus.title')}</h1>
      {listFailure && (
        <div className="error-summary" role="alert" id="case-list-failed">
          <p>{listFailure.text}</p>
          <p>
            <a href={listFailure.href}>{listFailure.label}</a>
          </p>
        </div>
      )}
      <ol className="case-steps" aria-label={t('caseStatus.steps')}>
        <li>
          {t('caseStatus.submitted')} <span className="badge">{t('caseStatus.done')}</span>
        </li>
        <li {...(stepTwo ? { 'data-step-two': stepTwo } : {})}>
          {t('caseStatus.reviewed')}
          {stepTwo && (
            <>
              {' '}
              <span className="badge">{t(`caseStatus.${stepTwo}`)}</span>
            </>
          )}
        </li>
        <li>{t('caseStatus.decision')}</li>
      </ol>
      {(forms.length > 0 || others.length > 0) && (
        <section aria-labelledby="case-needed">
          <h2 id="case-needed">{t('caseStatus.needed.title')}</h2>
          {forms.length > 0 && <p>{t('caseStatus.needed.text')}</p>}
          {forms.map((form) => (
            <TaskForm key={form.id} t={t} form={form} action={taskAction} />
          ))}
          {others.map((other) => (
            <section key={other.id} className="case-task" aria-labelledby={`${other.id}-title`}>
              <h3 id={`${other.id}-title`}>{t('caseStatus.task.other.title')}</h3>
              <p>{t('caseStatus.task.other.text')}</p>
            </section>
          ))}
        </section>
      )}
      {sent.length > 0 && (
        <section aria-labelledby="case-sent">
          <h2 id="case-sent">{t('caseStatus.sent.title')}</h2>
          {justSent && (
            <p role="status" className="case-sent__confirmation">
              {t('caseStatus.sent.confirmation')}
            </p>
          )}
          <ul className="case-sent">
            {sent.map((task) => (
              <li key={task.id} id={task.id}>
                <strong>{t(`caseStatus.task.${task.type}.title`)}</strong> <span className="badge">{t('caseStatus.sent.badge')}</span>
                {task.files.length > 0 && (
                  <span className="case-sent__files">
                    {task.files.map((name, i) => (
                      <Fragment key={i}>
                        {i > 0 && ', '}
                        <FileName name={name} />
                      </Fragment>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <form method="post" action={returnAction}>
        <CsrfField />
        <button type="submit" className="btn btn-secondary">
          {t('caseStatus.returnToSite')}
        </button>
      </form>
    </section>
  );
}

/** OnboardingTriggerCase: the link lands here; the button's post creates the case (a GET changes nothing upstream). */
export function TriggerCasePageView({ t, action }: { t: Translate; action: string }) {
  return (
    <section aria-labelledby="trigger-title">
      <h1 id="trigger-title">{t('caseStatus.trigger.title')}</h1>
      <p>{t('caseStatus.trigger.text')}</p>
      <form method="post" action={action}>
        <CsrfField />
        <button type="submit" className="btn">
          {t('caseStatus.trigger.button')}
        </button>
      </form>
    </section>
  );
}

/** A page of one message and one way on: a task's post whose form cannot be shown again (refused, or the list failed). */
export function CaseStatusMessageView({ title, text, link }: { title: string; text?: string; link: { href: string; label: string } }) {
  return (
    <section className="result result--error" aria-labelledby="message-title">
      <h1 id="message-title">{title}</h1>
      {text && <p>{text}</p>}
      <p>
        <a className="btn" href={link.href}>
          {link.label}
        </a>
      </p>
    </section>
  );
}
