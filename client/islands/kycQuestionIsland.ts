// A page of the KYC answer session (customer-information §2.3 "KYC questionnaire", §5 "KYC", §4.7), without React.
// The server renders it (views/pages/KycStepView.tsx KycQuestionForm) as a plain form with Continue: single choice
// with 2 answers as radios, with more as a dropdown, multiple choice as checkboxes. This script enhances that markup:
// a single-choice page advances as soon as it is answered (the hint above the questions says so, WCAG 3.2.2), a
// multiple-choice page keeps Continue disabled until something is chosen, a question left unanswered after touching
// says "Choose alternative", help text opens as a modal (a bottom sheet on phones) instead of the disclosure, and
// the politically exposed "yes" asks in the PEP dialog first: its primary action answers no and posts.
// What is chosen is what the form's controls hold, so a choice made before the script ran counts. Plain DOM: the
// page is usable within 1.5 s on a phone (issue 23 item 5).
import { confirmThenSubmit } from '../components/confirmThenSubmit.ts';
import { h, patchChildren } from '../components/dom.ts';

export type KycControl = 'radios' | 'select' | 'checkboxes';

export interface KycQuestionScriptProps {
  /** The page's questions: how each is answered and the server's message for it (a refused post). */
  questions: { id: number; control: KycControl; error: string | null }[];
  /** The translated texts: the touched question's message and the summary's title (form.error.summary). */
  texts: { chooseAlternative: string; errorSummary: string };
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

/** A question as the page shows it: its dropdown or its radios and checkboxes, in their container. */
interface Question {
  q: KycQuestionScriptProps['questions'][number];
  box: HTMLElement;
  select: HTMLSelectElement | null;
  inputs: HTMLInputElement[];
}

const chosenOf = ({ select, inputs }: Question): number[] =>
  select ? (select.value === '' ? [] : [Number(select.value)]) : inputs.filter((i) => i.checked).map((i) => Number(i.value));
const answered = (question: Question) => chosenOf(question).length > 0;
const anchorOf = (question: Question) => (question.select ?? question.inputs[0])?.id ?? '';

function setChosen({ select, inputs }: Question, ids: number[]): void {
  if (select) select.value = ids[0] === undefined ? '' : String(ids[0]);
  for (const input of inputs) input.checked = ids.includes(Number(input.value));
}

/** Shows or clears a question's message above its answers, as the server renders it. */
function showError(question: Question, error: string | null): void {
  const id = `${fieldName(question.q.id)}-error`;
  const shown = document.getElementById(id);
  // The select carries the message itself; radios and checkboxes through their fieldset.
  const described = question.select ?? question.box;
  if (!error) {
    shown?.remove();
    described.removeAttribute('aria-describedby');
    question.select?.removeAttribute('aria-invalid');
    return;
  }
  // The server's message is part of the page; one that comes from touching is announced.
  const line = h('p', { id, className: 'field__error', ...(question.q.error ? {} : { role: 'alert' }) }, error);
  if (shown && !shown.isEqualNode(line)) shown.replaceWith(line);
  else if (!shown) (question.select ?? question.inputs[0]?.closest('.checkbox-card'))?.before(line);
  described.setAttribute('aria-describedby', id);
  question.select?.setAttribute('aria-invalid', 'true');
}

/** The help text as a modal (a bottom sheet on a phone, styles.css) instead of the disclosure. */
function enhanceHelp(box: HTMLElement): void {
  const summary = box.querySelector<HTMLElement>(':scope > details.kyc-help > summary');
  const dialog = box.querySelector(':scope > dialog.help-sheet');
  if (!summary || !(dialog instanceof HTMLDialogElement)) return;
  summary.addEventListener('click', (e) => {
    e.preventDefault();
    dialog.showModal();
  });
  dialog.querySelector('button')?.addEventListener('click', () => {
    dialog.close();
    summary.focus();
  });
}

export default function enhanceKycQuestion(el: HTMLElement, { questions, texts, pep }: KycQuestionScriptProps): void {
  const form = el.querySelector('form');
  if (!form) return;
  const page: Question[] = questions.flatMap((q) => {
    const select = form.querySelector<HTMLSelectElement>(`select[name="${fieldName(q.id)}"]`);
    const inputs = [...form.querySelectorAll<HTMLInputElement>(`input[name="${fieldName(q.id)}"]`)];
    const box = (select ?? inputs[0])?.closest<HTMLElement>('.kyc-question');
    return box ? [{ q, box, select, inputs }] : [];
  });
  const touched = new Set<number>();
  // Set while keys browse a closed dropdown's choices, which then change without choosing.
  let keyboardBrowsing = false;
  const singleChoiceOnly = page.every(({ q }) => q.control !== 'checkboxes');
  const continueButton = form.querySelector<HTMLButtonElement>('button[type=submit]');

  const errorOf = (question: Question): string | null => {
    if (answered(question)) return null;
    return question.q.error ?? (touched.has(question.q.id) ? texts.chooseAlternative : null);
  };

  /** Brings the page to what is chosen and touched: each question's message, the summary, Continue. */
  const render = () => {
    for (const question of page) showError(question, errorOf(question));
    // The summary lists the server's messages of the questions still unanswered (views/components/ErrorSummary.tsx).
    const lines = page
      .filter((question) => question.q.error && !answered(question))
      .map((question) => h('li', {}, h('a', { href: `#${anchorOf(question)}` }, question.q.error)));
    const summary = form.querySelector(':scope > .error-summary');
    const list = summary?.querySelector('ul');
    if (lines.length === 0) summary?.remove();
    else if (list) patchChildren(list, lines);
    else
      form.querySelector(':scope > h1')?.after(h('div', { className: 'error-summary', role: 'alert' }, h('p', {}, texts.errorSummary), h('ul', {}, ...lines)));
    // customer-information §2.3: multiple choice has Continue, disabled until something is chosen.
    if (continueButton) continueButton.disabled = !singleChoiceOnly && page.some((question) => question.q.control === 'checkboxes' && !answered(question));
  };

  /** A single-choice page posts once every question is answered. */
  const advanceIfComplete = () => {
    if (singleChoiceOnly && page.every(answered)) form.requestSubmit();
  };

  for (const question of page) {
    const { q, box, select } = question;
    enhanceHelp(box);
    box.addEventListener('focusout', (e) => {
      // Touched: focus has left the question (not moved within it, nor into its help).
      if (box.contains(e.relatedTarget as Node | null)) return;
      touched.add(q.id);
      render();
    });
    if (select) {
      select.addEventListener('keydown', (e) => {
        keyboardBrowsing = browsingKeys.has(e.key) || e.key.length === 1;
        // Enter chooses what the keys have browsed to.
        if (e.key === 'Enter') {
          e.preventDefault();
          keyboardBrowsing = false;
          advanceIfComplete();
        }
      });
      select.addEventListener('pointerdown', () => (keyboardBrowsing = false));
    }
    box.addEventListener('change', () => {
      render();
      if (q.control !== 'checkboxes') {
        if (!keyboardBrowsing || !select) advanceIfComplete();
        return;
      }
      // Everything unticked again: touched, so "Choose alternative" shows.
      if (!answered(question)) {
        touched.add(q.id);
        render();
      }
    });
  }

  form.addEventListener('submit', (e) => {
    const missing = page.filter((question) => !answered(question));
    if (missing.length === 0) return;
    e.preventDefault();
    for (const question of missing) touched.add(question.q.id);
    render();
    document.getElementById(anchorOf(missing[0]!))?.focus();
  });

  const pepQuestion = pep && page.find(({ q }) => q.id === pep.questionId);
  if (pep && pepQuestion) {
    confirmThenSubmit(el, {
      dialogId: pep.dialogId,
      confirmOn: 'primary',
      // A complete page whose PEP answer is yes asks first.
      needsConfirming: () => page.every(answered) && chosenOf(pepQuestion).includes(pep.yes),
      // The dialog's primary action: the answer back to no, then the post (customer-information §4.7).
      onConfirm: () => {
        setChosen(pepQuestion, [pep.no]);
        render();
      },
      // Cancel (or Esc): back to the question with nothing answered.
      onDecline: () => {
        setChosen(pepQuestion, []);
        render();
      },
    });
  }

  if (singleChoiceOnly) form.querySelector<HTMLElement>(':scope > .hint')?.removeAttribute('hidden');
  render();
}
