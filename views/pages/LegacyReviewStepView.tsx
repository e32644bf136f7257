// Check your answers before signing the legacy form (WCAG 2.2 SC 3.3.4): what the person gave,
// section by section, each with a Change back to its card of the form, and 'Sign agreements', which saves
// and goes to signing (customer-information §4.9; its island shows loading meanwhile).
import { AnswersSummary, type SummarySection } from '../components/AnswersSummary.tsx';
import type { ScreenFieldValues } from '../components/ScreenForm.tsx';
import { SubmitOnceForm } from '../components/SubmitOnceForm.tsx';

export interface LegacyReviewProps {
  /** The page's heading (the form's title); the summary's own title is its h2. */
  heading: string;
  title: string;
  intro: string;
  sections: readonly SummarySection[];
  action: string;
  fields: ScreenFieldValues;
  labels: { sign: string; signing: string };
}

export function LegacyReview({ heading, title, intro, sections, action, fields, labels }: LegacyReviewProps) {
  return (
    <section className="legacy-review" aria-labelledby="legacy-review-title">
      <h1 id="legacy-review-title">{heading}</h1>
      <AnswersSummary title={title} intro={intro} sections={sections} />
      <SubmitOnceForm
        action={action}
        fields={{ ...fields, intent: 'sign' }}
        className="sign-agreements"
        labels={{ submit: labels.sign, pending: labels.signing }}
      />
    </section>
  );
}
