// One error pattern for every form (GOV.UK Forms style): a summary on top, read first by screen readers, each line
// linking to its field; and each field showing its own message, tied to the input by aria-describedby.
//   <ErrorSummary t={t} errors={[['tin-NO', t('…tinRequired')]]} />
//   <Field id="tin-NO" label={…} error={errors.tin}>{(described) => <input id="tin-NO" name="tin_NO" {...described} />}</Field>
import type { ReactNode, Ref } from 'react';
import type { Translate } from '../../shared/i18n.ts';

/** A line of the summary: the field's id (null: a message about the whole form) and the message. */
export type SummaryLine = readonly [id: string | null, message: string];

/**
 * The form's errors as links to their fields; nothing without errors. Server views pass `t`; an island,
 * which has no translator, passes the translated `title` (the text of `form.error.summary`).
 */
export function ErrorSummary(
  props: ({ t: Translate } | { title: string }) & {
    errors: readonly SummaryLine[];
    /** An island that found the errors itself moves focus here (the summary then takes focus, tabIndex -1). */
    focusRef?: Ref<HTMLElement>;
  },
) {
  const { errors, focusRef } = props;
  if (errors.length === 0) return null;
  const focusable = focusRef ? { ref: focusRef as Ref<HTMLDivElement & HTMLParagraphElement>, tabIndex: -1 } : {};
  // One message about the whole form (e.g. "Upload at least one document") has nothing to link to: it is the summary.
  if (errors.length === 1 && errors[0]![0] === null) {
    return (
      <p className="error-summary" role="alert" {...focusable}>
        {errors[0]![1]}
      </p>
    );
  }
  return (
    <div className="error-summary" role="alert" {...focusable}>
      <p>{'title' in props ? props.title : props.t('form.error.summary')}</p>
      <ul>
        {errors.map(([id, message]) => (
          <li key={`${id ?? ''}:${message}`}>{id ? <a href={`#${id}`}>{message}</a> : message}</li>
        ))}
      </ul>
    </div>
  );
}

/** What an input needs to announce its error. */
export interface Described {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The id of a field's inline error, and the attributes tying an input to it. */
export function describedBy(id: string, error: string | null | undefined): Described {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

/** A field's inline error message (for fields whose label is not a plain <label>, e.g. a fieldset). */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="field__error">
      {error}
    </p>
  );
}

/** A labelled field with its inline error; the input gets the aria attributes through `children`. */
export function Field(props: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  className?: string;
  children: (described: Described) => ReactNode;
}) {
  return (
    <div className={props.className ?? 'field'}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.hint}
      <FieldError id={props.id} error={props.error} />
      {props.children(describedBy(props.id, props.error))}
    </div>
  );
}
