// Continue on the DK/NO/FI identification pages: a plain form post to our server, which redirects to the
// identification broker. The island only adds the spinner while the browser loads the broker (identification-routing-creation §2
// "spinner while loading") and stops a second click from starting a second attempt.
import { useSubmitOnce } from '../components/useSubmitOnce.ts';
import { CsrfField } from '../../views/components/CsrfField.tsx';

export interface OidcContinueProps {
  action: string;
  labels: { continue: string; redirecting: string };
}

export default function OidcContinue({ action, labels }: OidcContinueProps) {
  const { loading, onSubmit } = useSubmitOnce();

  return (
    <form method="post" action={action} onSubmit={onSubmit} className="oidc-continue">
      <CsrfField />
      <button type="submit" className="btn" aria-disabled={loading ? 'true' : undefined}>
        {labels.continue}
      </button>
      <p role="status" className="oidc-continue__status">
        {loading && (
          <span className="spinner-text">
            <span className="spinner" aria-hidden="true" />
            {labels.redirecting}
          </span>
        )}
      </p>
    </form>
  );
}
