// 'Sign agreements' on the legacy form's check-your-answers page (customer-information §4.9: "the data is sent
// and the button shows loading"): a plain form post that saves and redirects to signing. The island only adds
// the loading state while the three calls run and stops a second click from saving twice.
import { useSubmitOnce } from '../components/useSubmitOnce.ts';
import { CsrfField } from '../../views/components/CsrfField.tsx';

export interface SignAgreementsProps {
  action: string;
  /** The hidden step and screen fields, and what the button posts. */
  fields: Record<string, string>;
  labels: { sign: string; signing: string };
}

export default function SignAgreements({ action, fields, labels }: SignAgreementsProps) {
  const { loading, onSubmit } = useSubmitOnce();

  return (
    <form method="post" action={action} onSubmit={onSubmit} className="sign-agreements">
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn" aria-disabled={loading ? 'true' : undefined}>
        {labels.sign}
      </button>
      <p role="status" className="oidc-continue__status">
        {loading && (
          <span className="spinner-text">
            <span className="spinner" aria-hidden="true" />
            {labels.signing}
          </span>
        )}
      </p>
    </form>
  );
}
