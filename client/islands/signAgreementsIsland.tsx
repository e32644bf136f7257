// 'Sign agreements' on the legacy form's check-your-answers page (customer-information §4.9: "the data is sent
// and the button shows loading"): a plain form post that saves and redirects to signing. The island only adds
// the loading state while the three calls run and stops a second click from saving twice.
import { SubmitOnceForm } from '../components/SubmitOnceForm.tsx';

export interface SignAgreementsProps {
  action: string;
  /** The hidden step and screen fields, and what the button posts. */
  fields: Record<string, string>;
  labels: { sign: string; signing: string };
}

export default function SignAgreements({ action, fields, labels }: SignAgreementsProps) {
  return <SubmitOnceForm action={action} fields={fields} className="sign-agreements" labels={{ submit: labels.sign, pending: labels.signing }} />;
}
