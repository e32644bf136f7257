// A page of the KYC answer session (customer-information §2.3 "KYC questionnaire", §5 "KYC", §4.7): the kycQuestion
// island (views/pages/KycStepView.tsx KycQuestionScreen). Without JavaScript a plain form with Continue: radios for 2
// answers, a dropdown for more, checkboxes for multiple choice, the help a disclosure. Hydrated, a single-choice page
// advances as soon as it is answered (WCAG 3.2.2), the help opens as a modal, and PEP "yes" asks in the PEP dialog first
// (docs/islands.md).
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type FocusEvent } from 'react';
import { useConfirmThenSubmit } from '../../client/components/useConfirmThenSubmit.ts';
import { useHydrated } from '../../client/components/useHydrated.ts';
import { ErrorSummary } from './ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

export type KycControl = 'radios' | 'select' | 'checkboxes';

export interface KycQuestionView {
  id: number;
  text: string;
  control: KycControl;
  options: { id: number; text: string }[];
  helpText: string | null;
  /** What is chosen (kept from a refused post, or what was answered before Back). */
  chosen: number[];
  /** The server's message for this question. */
  error: string | null;
}

/** The island's props (plain JSON: they travel in data-props). */
export interface KycQuestionFormProps {
  action: string;
  fields: ScreenFieldValues;
  /** Names the page answered, so an answer from a stale tab is not taken for another page. */
  pageKey: string;
  title: string;
  questions: KycQuestionView[];
  /** The translated texts the form shows. */
  texts: {
    autoAdvance: string;
    continue: string;
    chooseAlternative: string;
    /** form.error.summary */
    errorSummary: string;
    selectPlaceholder: string;
    helpOpen: string;
    helpClose: string;
  };
  /** The PEP question on this page: its yes opens the dialog `dialogId` first (customer-information §4.7). */
  pep: { dialogId: string; questionId: number; yes: number; no: number } | null;
}

/** The name the question's answers post under. */
export const fieldName = (questionId: number) => `answer-${questionId}`;
/** The id an error links to: the select, or a choice's first input. */
export const questionAnchor = (q: { id: number; control: KycControl; options: { id: number }[] }) =>
  q.control === 'select' ? fieldName(q.id) : `${fieldName(q.id)}-${q.options[0]?.id ?? 0}`;

// Keys that move a closed dropdown's choice without choosing (the change event fires on each).
const browsingKeys = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

type Chosen = Record<number, number[]>;

const chosenOf = (questions: KycQuestionView[]): Chosen => Object.fromEntries(questions.map((q) => [q.id, q.chosen]));

/** A question's help: a disclosure without JavaScript; once hydrated its summary opens the modal instead. */
function HelpText({ q, texts }: { q: KycQuestionView; texts: KycQuestionFormProps['texts'] }) {
  const summary = useRef<HTMLElement>(null);
  const sheet = useRef<HTMLDialogElement>(null);
  if (!q.helpText) return null;
  return (
    <>
      <details className="kyc-help">
        <summary
          ref={summary}
          onClick={(e) => {
            e.preventDefault();
            sheet.current?.showModal();
          }}
        >
          {texts.helpOpen}
        </summary>
        <p>{q.helpText}</p>
      </details>
      <dialog ref={sheet} className="help-sheet" aria-labelledby={`help-${q.id}-title`}>
        <h2 id={`help-${q.id}-title`}>{q.text}</h2>
        <p>{q.helpText}</p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            sheet.current?.close();
            summary.current?.focus();
          }}
        >
          {texts.helpClose}
        </button>
      </dialog>
    </>
  );
}

interface QuestionProps {
  q: KycQuestionView;
  texts: KycQuestionFormProps['texts'];
  chosen: number[];
  /** The message shown above the answers, and whether it came from touching (announced) rather than the server. */
  error: { text: string; announced: boolean } | null;
  onChoose: (ids: number[], via: 'pointer' | 'keys') => void;
  onTouched: () => void;
  onEnter: () => void;
  /** The select or the first choice: where the error links to and the focus goes. */
  anchorRef: (el: HTMLElement | null) => void;
}

/**
 * One question (customer-information §2.3): single choice of more than 2 answers as a dropdown, of 2 as radios,
 * multiple choice as checkboxes; what is chosen, and its message above the answers while unanswered.
 */
function KycQuestion({ q, texts, chosen, error, onChoose, onTouched, onEnter, anchorRef }: QuestionProps) {
  const name = fieldName(q.id);
  const errorId = `${name}-error`;
  // Set while keys browse a closed dropdown's choices, which then change without choosing.
  const keyboardBrowsing = useRef(false);
  // Touched: focus has left the question (not moved within it, nor into its help).
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onTouched();
  };
  const errorLine = error && (
    <p id={errorId} className="field__error" role={error.announced ? 'alert' : undefined}>
      {error.text}
    </p>
  );
  if (q.control === 'select') {
    const onKeyDown = (e: KeyboardEvent<HTMLSelectElement>) => {
      keyboardBrowsing.current = browsingKeys.has(e.key) || e.key.length === 1;
      // Enter chooses what the keys have browsed to.
      if (e.key === 'Enter') {
        e.preventDefault();
        keyboardBrowsing.current = false;
        onEnter();
      }
    };
    return (
      <div className="field kyc-question" onBlur={onBlur}>
        <label htmlFor={name}>{q.text}</label>
        <HelpText q={q} texts={texts} />
        {errorLine}
        <select
          ref={anchorRef}
          id={name}
          name={name}
          value={chosen[0] === undefined ? '' : String(chosen[0])}
          onChange={(e) => onChoose(e.target.value === '' ? [] : [Number(e.target.value)], keyboardBrowsing.current ? 'keys' : 'pointer')}
          onKeyDown={onKeyDown}
          onPointerDown={() => (keyboardBrowsing.current = false)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
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
  const multiple = q.control === 'checkboxes';
  return (
    <fieldset className="kyc-question" aria-describedby={error ? errorId : undefined} onBlur={onBlur}>
      <legend>{q.text}</legend>
      <HelpText q={q} texts={texts} />
      {errorLine}
      {q.options.map((o, i) => {
        const id = `${name}-${o.id}`;
        const checked = chosen.includes(o.id);
        return (
          <div key={o.id} className="checkbox-card">
            <input
              ref={i === 0 ? anchorRef : undefined}
              type={multiple ? 'checkbox' : 'radio'}
              id={id}
              name={name}
              value={String(o.id)}
              checked={checked}
              onChange={(e) => {
                if (!multiple) onChoose([o.id], 'pointer');
                else onChoose(e.target.checked ? [...chosen, o.id] : chosen.filter((c) => c !== o.id), 'pointer');
              }}
            />
            <label htmlFor={id}>{o.text}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

export function KycQuestionForm({ action, fields, pageKey, title, questions, texts, pep }: KycQuestionFormProps) {
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<Chosen>(() => chosenOf(questions));
  const [touched, setTouched] = useState<ReadonlySet<number>>(new Set());
  const anchors = useRef(new Map<number, HTMLElement>());
  const touch = (ids: number[]) => setTouched((before) => new Set([...before, ...ids]));
  const setAnswer = (id: number, ids: number[]) => setChosen((before) => ({ ...before, [id]: ids }));

  const { form, askFirst } = useConfirmThenSubmit(pep?.dialogId ?? '', {
    confirmOn: 'primary',
    // The dialog's primary action: the answer back to no, then the post (customer-information §4.7).
    onConfirm: () => pep && setAnswer(pep.questionId, [pep.no]),
    // Cancel (or Esc): back to the question with nothing answered.
    onDecline: () => pep && setAnswer(pep.questionId, []),
  });

  // A choice made before the page's script ran is the answer: the hydrated controls kept it (React leaves a control's
  // state as it finds it), so the state starts from them.
  useLayoutEffect(() => {
    const el = form.current;
    if (!el) return;
    const data = new FormData(el);
    setChosen(Object.fromEntries(questions.map((q) => [q.id, data.getAll(fieldName(q.id)).flatMap((v) => (v === '' ? [] : [Number(v)]))])));
    // Once, on hydration: the props do not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const answered = (q: KycQuestionView) => (chosen[q.id] ?? []).length > 0;
  const complete = questions.every(answered);
  const singleChoiceOnly = questions.every((q) => q.control !== 'checkboxes');
  const pepYes = pep !== null && (chosen[pep.questionId] ?? []).includes(pep.yes);

  // A single-choice page posts once every question is answered: asked for by a choice, done once it is rendered.
  const [advance, setAdvance] = useState(0);
  useEffect(() => {
    if (advance > 0) form.current?.requestSubmit();
  }, [advance, form]);
  const advanceIfComplete = () => {
    if (singleChoiceOnly) setAdvance((n) => n + 1);
  };

  const errorOf = (q: KycQuestionView): QuestionProps['error'] => {
    if (answered(q)) return null;
    if (q.error) return { text: q.error, announced: false };
    return touched.has(q.id) ? { text: texts.chooseAlternative, announced: true } : null;
  };
  // The summary lists the server's messages of the questions still unanswered.
  const serverErrors = questions.filter((q) => q.error && !answered(q)).map((q) => [questionAnchor(q), q.error!] as const);

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const missing = questions.filter((q) => !answered(q));
    if (missing.length > 0) {
      e.preventDefault();
      touch(missing.map((q) => q.id));
      anchors.current.get(missing[0]!.id)?.focus();
      return;
    }
    // A complete page whose PEP answer is yes asks first.
    askFirst(e, pepYes);
  };

  return (
    <form ref={form} method="post" action={action} noValidate className="kyc" onSubmit={onSubmit}>
      <ScreenFields fields={fields} />
      <input type="hidden" name="kycPage" value={pageKey} />
      <h1>{title}</h1>
      <ErrorSummary title={texts.errorSummary} errors={serverErrors} />
      {/* WCAG 3.2.2: shown once a choice moves on, that is once hydrated. */}
      {singleChoiceOnly && (
        <p className="hint" hidden={!hydrated}>
          {texts.autoAdvance}
        </p>
      )}
      {questions.map((q) => (
        <KycQuestion
          key={q.id}
          q={q}
          texts={texts}
          chosen={chosen[q.id] ?? []}
          error={errorOf(q)}
          anchorRef={(el) => {
            if (el) anchors.current.set(q.id, el);
            else anchors.current.delete(q.id);
          }}
          onTouched={() => touch([q.id])}
          onEnter={() => complete && advanceIfComplete()}
          onChoose={(ids, via) => {
            setAnswer(q.id, ids);
            if (q.control === 'checkboxes') {
              // Everything unticked again: touched, so "Choose alternative" shows.
              if (ids.length === 0) touch([q.id]);
              return;
            }
            const nowComplete = questions.every((other) => (other.id === q.id ? ids.length > 0 : answered(other)));
            if (via === 'pointer' && nowComplete) advanceIfComplete();
          }}
        />
      ))}
      {/* customer-information §2.3: multiple choice has Continue, disabled until something is chosen (with JavaScript). */}
      <button type="submit" className="btn" disabled={hydrated && !singleChoiceOnly && questions.some((q) => q.control === 'checkboxes' && !answered(q))}>
        {texts.continue}
      </button>
    </form>
  );
}
