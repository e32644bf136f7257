// The legacy form's know-your-customer and investment-risk cards (customer-information.md §2.3, §4.10): the legacyForm
// island, rendered inside the form (views/pages/LegacyFormStepView.tsx) and hydrated with the same props. A sensitive
// answer opens its dialog at once as a modal; its primary action puts the answer back to the harmless one in the form,
// so nothing typed is lost. Without JavaScript the dialog is a screen after the post (docs/islands.md).
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { onDialogClose, openDialog } from '../../client/components/dialogEvents.ts';
import { describedBy, FieldError } from './ErrorSummary.tsx';

export interface Choice {
  value: string;
  label: string;
}

/** A group of radios, a select or checkboxes, by name; `id` is the first control's id (the error summary links to it). */
export interface ChoiceField {
  id: string;
  name: string;
  legend: string;
  hint?: string;
  control: 'radios' | 'select' | 'checkboxes';
  choices: Choice[];
  chosen: readonly string[];
  error?: string;
}

export interface LegacyDialogWatcher {
  /** The form field (radio group or select) whose answer opens the dialog. */
  name: string;
  /** The answers that open it. */
  sensitive: string[];
  /** What the dialog's primary action sets the field to. */
  resetTo: string;
  /** The modal's id. */
  dialogId: string;
}

/** The island's props (plain JSON: they travel in data-props). */
export interface LegacyKycAnswersProps {
  texts: { kyc: string; kycIntro: string; risk: string; chooseOption: string };
  kyc: ChoiceField[];
  risk: ChoiceField;
  watchers: LegacyDialogWatcher[];
}

type Control = HTMLInputElement | HTMLSelectElement;

/** In the island: what is chosen, and what a choice does; without them the controls are the server's defaults. */
interface Controlled {
  chosen: readonly string[];
  onChoose: (chosen: string[], value: string) => void;
  /** Gets the first control (the form's answers are read through it once, on hydration). */
  firstRef?: RefObject<Control | null>;
}

/** A question of the form as its radios, dropdown or checkboxes, with its hint and message. */
export function Fieldset({ field, placeholder = '', controlled }: { field: ChoiceField; placeholder?: string; controlled?: Controlled }) {
  const hintId = field.hint ? `${field.id}-hint` : undefined;
  const described = describedBy(field.id, field.error);
  const describedIds = [hintId, described['aria-describedby']].filter(Boolean).join(' ') || undefined;
  if (field.control === 'select') {
    const value = controlled
      ? {
          value: controlled.chosen[0] ?? '',
          onChange: (e: { target: HTMLSelectElement }) => controlled.onChoose(e.target.value ? [e.target.value] : [], e.target.value),
        }
      : { defaultValue: field.chosen[0] ?? '' };
    return (
      <div className={`field${field.error ? ' field--error' : ''}`}>
        <label htmlFor={field.id}>{field.legend}</label>
        {field.hint && (
          <p id={hintId} className="field__hint">
            {field.hint}
          </p>
        )}
        <FieldError id={field.id} error={field.error} />
        <select
          ref={controlled?.firstRef as RefObject<HTMLSelectElement | null> | undefined}
          id={field.id}
          name={field.name}
          {...value}
          aria-invalid={described['aria-invalid']}
          aria-describedby={describedIds}
        >
          <option value="">{placeholder}</option>
          {field.choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
    );
  }
  const type = field.control === 'radios' ? 'radio' : 'checkbox';
  return (
    <fieldset className={`field${field.error ? ' field--error' : ''}`} aria-describedby={describedIds}>
      <legend>{field.legend}</legend>
      {field.hint && (
        <p id={hintId} className="field__hint">
          {field.hint}
        </p>
      )}
      <FieldError id={field.id} error={field.error} />
      {field.choices.map((c, i) => {
        const id = i === 0 ? field.id : `${field.id}-${i}`;
        const checked = controlled
          ? {
              checked: controlled.chosen.includes(c.value),
              onChange: (e: { target: HTMLInputElement }) => {
                if (type === 'radio') controlled.onChoose([c.value], c.value);
                else if (e.target.checked) controlled.onChoose([...controlled.chosen, c.value], c.value);
                else
                  controlled.onChoose(
                    controlled.chosen.filter((v) => v !== c.value),
                    '',
                  );
              },
            }
          : { defaultChecked: field.chosen.includes(c.value) };
        return (
          <div className="choice" key={c.value}>
            <input
              ref={i === 0 ? (controlled?.firstRef as RefObject<HTMLInputElement | null> | undefined) : undefined}
              id={id}
              type={type}
              name={field.name}
              value={c.value}
              {...checked}
              aria-invalid={i === 0 ? described['aria-invalid'] : undefined}
            />
            <label htmlFor={id}>{c.label}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

/** A card of the form: a titled section. */
export function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="panel legacy-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export function LegacyKycAnswers({ texts, kyc, risk, watchers }: LegacyKycAnswersProps) {
  const fields = [...kyc, risk];
  const [chosen, setChosen] = useState<Record<string, readonly string[]>>(() => Object.fromEntries(fields.map((f) => [f.name, f.chosen])));
  const setAnswer = (name: string, answer: readonly string[]) => setChosen((before) => ({ ...before, [name]: answer }));
  const riskControl = useRef<Control>(null);

  // An answer chosen before the page's script ran is the answer: the hydrated controls kept it (React leaves a
  // control's state as it finds it), so the state starts from the form's answers.
  useLayoutEffect(() => {
    const form = riskControl.current?.form;
    if (!form) return;
    const data = new FormData(form);
    setChosen(Object.fromEntries(fields.map((f) => [f.name, data.getAll(f.name).filter((v): v is string => typeof v === 'string' && v !== '')])));
    // Once, on hydration: the props do not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A dialog's primary action puts its answer back to the harmless one.
  useEffect(() => {
    const stops = watchers.map((w) => onDialogClose(w.dialogId, (result) => result === 'primary' && setAnswer(w.name, [w.resetTo])));
    return () => stops.forEach((stop) => stop());
  }, [watchers]);

  const controlledOf = (field: ChoiceField): Controlled => ({
    chosen: chosen[field.name] ?? [],
    onChoose: (answer, value) => {
      setAnswer(field.name, answer);
      const watcher = watchers.find((w) => w.name === field.name);
      if (value && watcher?.sensitive.includes(value)) openDialog(watcher.dialogId);
    },
  });

  return (
    <>
      <Card id="legacy-kyc" title={texts.kyc}>
        <p>{texts.kycIntro}</p>
        {kyc.map((field) => (
          <Fieldset key={field.id} field={field} placeholder={texts.chooseOption} controlled={controlledOf(field)} />
        ))}
      </Card>
      <Card id="legacy-risk" title={texts.risk}>
        <Fieldset field={risk} controlled={{ ...controlledOf(risk), firstRef: riskControl }} />
      </Card>
    </>
  );
}
