// Continue on the DK/NO/FI identification pages: a plain form post to our server, which redirects to the
// identification broker. The island only adds the spinner while the browser loads the broker (identification-routing-creation §2
// "spinner while loading") and stops a second click from starting a second attempt.
import { SubmitOnceForm } from '../components/SubmitOnceForm.tsx';

export interface OidcContinueProps {
  action: string;
  labels: { continue: string; redirecting: string };
}

export default function OidcContinue({ action, labels }: OidcContinueProps) {
  return <SubmitOnceForm action={action} className="oidc-continue" labels={{ submit: labels.continue, pending: labels.redirecting }} />;
}
