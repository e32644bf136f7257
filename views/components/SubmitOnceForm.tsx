// A form post that navigates away (to the identification broker, to the signing service), as the server renders it
// for the islands that send one (oidcContinue, signAgreements): a plain form without JavaScript; with it
// client/components/submitOnce.ts shows a spinner and its status text from the click until the next page, and a second
// click does not post again.
import { CsrfField } from './CsrfField.tsx';
import { Island } from './Island.tsx';
import type { SubmitOnceProps } from '../../client/components/submitOnce.ts';

export interface SubmitOnceFormProps {
  /** The island whose script enhances the form (client/islands/<island>Island.ts). */
  island: 'oidcContinue' | 'signAgreements';
  action: string;
  /** Hidden fields posted with the button. */
  fields?: Record<string, string>;
  /** The form's own class (the island's), besides submit-once. */
  className: string;
  labels: { submit: string; pending: string };
}

export function SubmitOnceForm({ island, action, fields = {}, className, labels }: SubmitOnceFormProps) {
  return (
    <Island<SubmitOnceProps> name={island} props={{ pending: labels.pending }}>
      <form method="post" action={action} className={`submit-once ${className}`}>
        <CsrfField />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn">
          {labels.submit}
        </button>
        <p role="status" className="submit-once__status" />
      </form>
    </Island>
  );
}
