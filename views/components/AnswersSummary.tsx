// "Check your answers" before signing (WCAG 2.2 SC 3.3.4), shared by milestone three of the
// step flow (views/pages/CustomerInformationPageView.tsx MilestoneStep) and the legacy form's review
// (views/pages/LegacyReviewStepView.tsx). GOV.UK's summary list: per section a heading, its key/value rows (several
// values as a list) and a Change control — a post (hidden fields and the CSRF token; a GET changes nothing)
// or a link. Works without JavaScript; the texts come translated.
import { CsrfField } from './CsrfField.tsx';

export interface SummaryRow {
  label: string;
  value: string | readonly string[];
}

export interface SummarySection {
  id: string; // DOM id suffix, e.g. 'contact'
  title: string;
  rows: readonly SummaryRow[];
  /** The Change control: a post (hidden fields + CSRF) or a link. Absent: no Change. */
  change?: { label: string; action: string; fields: Record<string, string> } | { label: string; href: string };
}

/** A section's Change (also milestone three's lead to a missing step). */
export function Change({ change }: { change: NonNullable<SummarySection['change']> }) {
  if ('href' in change) {
    return (
      <a className="answers-summary__change link-button" href={change.href}>
        {change.label}
      </a>
    );
  }
  return (
    <form className="answers-summary__change" method="post" action={change.action}>
      <CsrfField />
      {Object.entries(change.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="link-button">
        {change.label}
      </button>
    </form>
  );
}

function Value({ value }: { value: SummaryRow['value'] }) {
  if (typeof value === 'string') return <>{value}</>;
  if (value.length === 1) return <>{value[0]}</>;
  return (
    <ul className="summary-list__values">
      {value.map((v, i) => (
        <li key={i}>{v}</li>
      ))}
    </ul>
  );
}

export function AnswersSummary({ title, intro, sections }: { title: string; intro?: string; sections: readonly SummarySection[] }) {
  return (
    <section className="answers-summary" aria-labelledby="answers-summary-title">
      <h2 id="answers-summary-title">{title}</h2>
      {intro && <p className="answers-summary__intro">{intro}</p>}
      {sections.map((section) => (
        <div key={section.id} className="answers-summary__section" id={`summary-${section.id}`}>
          <div className="answers-summary__header">
            <h3 id={`summary-${section.id}-title`}>{section.title}</h3>
            {section.change && <Change change={section.change} />}
          </div>
          <dl className="summary-list">
            {section.rows.map((row, i) => (
              <div key={i} className="summary-list__row">
                <dt className="summary-list__key">{row.label}</dt>
                <dd className="summary-list__value">
                  <Value value={row.value} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </section>
  );
}
