// A page of the KYC answer session (customer-information §2.3 "KYC questionnaire", §5 "KYC", §4.7):
// single choice with 2 answers as radios, with more as a dropdown, multiple choice as checkboxes. The
// server renders it as a plain form with Continue; in the browser a single-choice page advances as soon
// as it is answered (the hint above the questions says so, WCAG 3.2.2), a multiple-choice page keeps
// Continue disabled until something is chosen, a question left unanswered after touching says "Choose
// alternative", help text opens as a modal (a bottom sheet on phones) instead of the disclosure, and the
// politically exposed "yes" asks in the PEP dialog first: its primary action answers no and posts.
import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useHydrated } from '../components/useHydrated.ts';
import { ErrorSummary } from '../../views/components/ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';
import { useConfirmThenSubmit } from '../components/useConfirmThenSubmit.ts';

export interface KycQuestionView {
  id: number;
  text: string;
  control: 'radios' | 'select' | 'checkboxes';
  options: { id: number; text: string }[];
  helpText: string | null;
  /** What is chosen (kept from a refused post, or what was answered before Back). */
  chosen: number[];
  /** The server's message for this question. */
  error: string | null;
}

export interface KycQuestionProps {
  action: string;
  fields: ScreenFieldValues;
  /** Names the page answered, so an answer from a stale tab is not taken for another page. */
  pageKey: string;
  title: string;
  questions: KycQuestionView[];
  texts: {
    continue: string;
    chooseAlternative: string;
    autoAdvance: string;
    selectPlaceholder: string;
    helpOpen: string;
    helpClose: string;
    errorSummary: string;
  };
  /** The PEP question on this page: its yes opens the dialog `dialogId` first (customer-information §4.7). */
  pep: { dialogId: string; questionId: number; yes: number; no: number } | null;
}

const fieldName = (questionId: number) => `answer-${questionId}`;
/** The id an error links to: the select, or a choice's first input. */
export const questionAnchor = (q: Pick<KycQuestionView, 'id' | 'control' | 'options'>) =>
  q.control === 'select' ? fieldName(q.id) : `${fieldName(q.id)}-${q.options[0]?.id ?? 0}`;

// Keys that move a closed dropdown's choice without choosing (the change event fires on each).
const browsingKeys = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

function HelpText({ q, texts, scripted }: { q: KycQuestionView; texts: KycQuestionProps['texts']; scripted: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const summary = useRef<HTMLElement>(null);
  if (!q.helpText) return null;
  const close = () => {
    dialog.current?.close();
    summary.current?.focus();
  };
  return (
    <>
      <details className="kyc-help">
        <summary
          ref={summary}
          onClick={(e) => {
            // With JavaScript the help opens as a modal (a bottom sheet on a phone, styles.css) instead.
            if (!scripted || !dialog.current) return;
            e.preventDefault();
            dialog.current.showModal();
          }}
        >
          {texts.helpOpen}
        </summary>
        <p>{q.helpText}</p>
      </details>
      <dialog ref={dialog} className="help-sheet" aria-labelledby={`help-${q.id}-title`}>
        <h2 id={`help-${q.id}-title`}>{q.text}</h2>
        <p>{q.helpText}</p>
        <button type="button" className="btn btn-secondary" onClick={close}>
          {texts.helpClose}
        </button>
      </dialog>
    </>
  );
}

/**
 * What the page's questions hold and how they change: what is chosen and touched, the error each shows, and a
 * single-choice page's post once every question is answered.
 */
function useKycAnswers({ questions, texts, pep }: Pick<KycQuestionProps, 'questions' | 'texts' | 'pep'>, scripted: boolean) {
  const [chosen, setChosen] = useState<Record<number, number[]>>(() => Object.fromEntries(questions.map((q) => [q.id, q.chosen])));
  const [touched, setTouched] = useState<Record<number, boolean>>({});
  // Set when a choice completes a single-choice page: the post follows once React has rendered the choice.
  const submitAfterRender = useRef(false);
  const keyboardBrowsing = useRef(false);

  const choose = (questionId: number, ids: number[]) => setChosen((c) => ({ ...c, [questionId]: ids }));
  const { form, askFirst } = useConfirmThenSubmit(pep?.dialogId ?? 'no-pep-dialog', {
    confirmOn: 'primary',
    // The dialog's primary action: the answer back to no, then the post (customer-information §4.7).
    onConfirm: () => pep && choose(pep.questionId, [pep.no]),
    onDecline: () => pep && choose(pep.questionId, []),
  });

  const answered = (q: KycQuestionView) => (chosen[q.id] ?? []).length > 0;
  const errorOf = (q: KycQuestionView): string | null => {
    if (answered(q)) return null;
    return q.error ?? (touched[q.id] ? texts.chooseAlternative : null);
  };
  const singleChoiceOnly = questions.every((q) => q.control !== 'checkboxes');
  // customer-information §2.3: multiple choice has Continue, disabled until something is chosen.
  const continueDisabled = scripted && !singleChoiceOnly && questions.some((q) => q.control === 'checkboxes' && !answered(q));

  // A single-choice page advances once every question is answered (after React has rendered the choice).
  useEffect(() => {
    if (!submitAfterRender.current) return;
    submitAfterRender.current = false;
    form.current?.requestSubmit();
  }, [chosen, form]);
  const advanceIfComplete = (next: Record<number, number[]>, rendered = false) => {
    if (!singleChoiceOnly || !questions.every((q) => (next[q.id] ?? []).length > 0)) return;
    if (rendered) form.current?.requestSubmit();
    else submitAfterRender.current = true;
  };
  const chooseAndAdvance = (questionId: number, ids: number[]) => {
    const next = { ...chosen, [questionId]: ids };
    setChosen(next);
    advanceIfComplete(next);
  };

  const onBlur = (q: KycQuestionView) => (e: FocusEvent<HTMLElement>) => {
    // Touched: focus has left the question (not moved within it, nor into its help).
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setTouched((t) => ({ ...t, [q.id]: true }));
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const missing = questions.filter((q) => !answered(q));
    if (missing.length > 0) {
      e.preventDefault();
      setTouched((t) => ({ ...t, ...Object.fromEntries(missing.map((q) => [q.id, true])) }));
      document.getElementById(questionAnchor(missing[0]!))?.focus();
      return;
    }
    askFirst(e, pep !== null && (chosen[pep.questionId] ?? []).includes(pep.yes));
  };

  return {
    formRef: form,
    keyboardBrowsingRef: keyboardBrowsing,
    onSubmit,
    answered,
    errorOf,
    singleChoiceOnly,
    continueDisabled,
    choices: { chosen, choose, chooseAndAdvance, advanceIfComplete, setTouched, onBlur },
  };
}
/** What a question reads and calls to change the answers. */
type Choices = ReturnType<typeof useKycAnswers>['choices'];

/** One question of the page; `errorLine` is its error, if any, as shown above its answers. */
interface QuestionProps {
  q: KycQuestionView;
  choices: Choices;
  texts: KycQuestionProps['texts'];
  scripted: boolean;
  error: string | null;
  errorId: string;
  errorLine: ReactNode;
  /** Set while keys browse a closed dropdown's choices, which then change without choosing (one for the page). */
  keyboardBrowsingRef: RefObject<boolean>;
}

/** A single-choice question of more than 2 answers, as a dropdown. */
function SelectQuestion({ q, choices, texts, scripted, error, errorId, errorLine, keyboardBrowsingRef }: QuestionProps) {
  const { chosen, choose, chooseAndAdvance, advanceIfComplete } = choices;
  const id = fieldName(q.id);
  return (
    <div className="field kyc-question" onBlur={choices.onBlur(q)}>
      <label htmlFor={id}>{q.text}</label>
      <HelpText q={q} texts={texts} scripted={scripted} />
      {errorLine}
      <select
        id={id}
        name={id}
        value={chosen[q.id]?.[0] === undefined ? '' : String(chosen[q.id]![0])}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onKeyDown={(e: KeyboardEvent<HTMLSelectElement>) => {
          keyboardBrowsingRef.current = browsingKeys.has(e.key) || e.key.length === 1;
          // Enter chooses what the keys have browsed to.
          if (e.key === 'Enter') {
            e.preventDefault();
            keyboardBrowsingRef.current = false;
            advanceIfComplete(chosen, true);
          }
        }}
        onPointerDown={() => (keyboardBrowsingRef.current = false)}
        onChange={(e) => {
          const ids = e.currentTarget.value === '' ? [] : [Number(e.currentTarget.value)];
          if (keyboardBrowsingRef.current) choose(q.id, ids);
          else chooseAndAdvance(q.id, ids);
        }}
      >
        <option value="">{texts.selectPlaceholder}</option>
        {q.options.map((o) => (
          <option key={o.id} value={String(o.id)}>
            {o.text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A question as radios (single choice of 2 answers) or checkboxes (multiple choice). */
function ChoiceQuestion({ q, choices, texts, scripted, error, errorId, errorLine }: QuestionProps) {
  const { chosen, choose, chooseAndAdvance, setTouched } = choices;
  const multiple = q.control === 'checkboxes';
  return (
    <fieldset className="kyc-question" aria-describedby={error ? errorId : undefined} onBlur={choices.onBlur(q)}>
      <legend>{q.text}</legend>
      <HelpText q={q} texts={texts} scripted={scripted} />
      {errorLine}
      {q.options.map((o) => {
        const id = `${fieldName(q.id)}-${o.id}`;
        const checked = (chosen[q.id] ?? []).includes(o.id);
        return (
          <div key={o.id} className="checkbox-card">
            <input
              type={multiple ? 'checkbox' : 'radio'}
              id={id}
              name={fieldName(q.id)}
              value={String(o.id)}
              checked={checked}
              onChange={(e) => {
                if (!multiple) return chooseAndAdvance(q.id, [o.id]);
                const rest = (chosen[q.id] ?? []).filter((x) => x !== o.id);
                const next = e.currentTarget.checked ? [...rest, o.id] : rest;
                choose(q.id, next);
                // Everything unticked again: touched, so "Choose alternative" shows.
                if (next.length === 0) setTouched((t) => ({ ...t, [q.id]: true }));
              }}
            />
            <label htmlFor={id}>{o.text}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

export default function KycQuestion({ action, fields, pageKey, title, questions, texts, pep }: KycQuestionProps) {
  const scripted = useHydrated();
  const { formRef, keyboardBrowsingRef, onSubmit, answered, errorOf, singleChoiceOnly, continueDisabled, choices } = useKycAnswers(
    { questions, texts, pep },
    scripted,
  );
  const serverErrors = questions.filter((q) => q.error && !answered(q)).map((q) => [questionAnchor(q), q.error!] as const);

  return (
    <form ref={formRef} method="post" action={action} noValidate className="kyc" onSubmit={onSubmit}>
      <ScreenFields fields={fields} />
      <input type="hidden" name="kycPage" value={pageKey} />
      <h1>{title}</h1>
      <ErrorSummary title={texts.errorSummary} errors={serverErrors} />
      {scripted && singleChoiceOnly && <p className="hint">{texts.autoAdvance}</p>}
      {questions.map((q) => {
        const error = errorOf(q);
        const errorId = `${fieldName(q.id)}-error`;
        const errorLine = error && (
          <p id={errorId} className="field__error" role={q.error ? undefined : 'alert'}>
            {error}
          </p>
        );
        const Question = q.control === 'select' ? SelectQuestion : ChoiceQuestion;
        return (
          <Question
            key={q.id}
            q={q}
            choices={choices}
            texts={texts}
            scripted={scripted}
            error={error}
            errorId={errorId}
            errorLine={errorLine}
            keyboardBrowsingRef={keyboardBrowsingRef}
          />
        );
      })}
      <button type="submit" className="btn" disabled={continueDisabled}>
        {texts.continue}
      </button>
    </form>
  );
}
