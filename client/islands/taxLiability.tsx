// Tax information sub-step 0 (customer-information.md §2.3, §4.5, §4.7): only the home country, the USA,
// or other countries. Without JavaScript the form posts and the server shows the FATCA dialog as its own
// screen when the choice calls for it. In the browser Continue with such a choice (USA, or home only
// with an address abroad) opens the FATCA modal (the dialog island, id dialogId) in place instead: its
// primary action (attest) posts this form with intent=attest, which the server checks really is a FATCA
// case before submitting home only; cancel just closes the modal.
import { useEffect, useRef, useState } from 'react';
import { decideLiability, type TaxLiability as Liability } from '../../shared/taxInformation.ts';
import { openDialog, useDialogClose } from './dialog.tsx';
import { QuestionFieldset } from '../components/QuestionFieldset.tsx';
import { CsrfField } from '../../views/components/CsrfField.tsx';

export interface TaxLiabilityProps {
  action: string;
  dialogId: string;
  /** The market, and the country of the address (the residency step's address abroad, otherwise home). */
  home: string;
  addressCountry: string;
  chosen: Liability | null;
  legend: string;
  options: { value: Liability; label: string }[];
  continueLabel: string;
  error: string | null;
}

export default function TaxLiability(props: TaxLiabilityProps) {
  const { action, dialogId, home, addressCountry, legend, options, continueLabel, error } = props;
  const [attested, setAttested] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useDialogClose(dialogId, (result) => {
    if (result === 'primary') setAttested(true);
  });
  // Posted once intent=attest is rendered into the form (submit() posts no button's value).
  useEffect(() => {
    if (attested) form.current?.submit();
  }, [attested]);

  return (
    <form
      ref={form}
      method="post"
      action={action}
      noValidate
      onSubmit={(e) => {
        // Read from the form, not from state: a choice made before the island ran counts too.
        const chosen = new FormData(e.currentTarget).get('liability');
        const liability = options.find((o) => o.value === chosen)?.value;
        if (liability && !attested && decideLiability(liability, home, addressCountry) === 'fatcaDialog') {
          // Should the modal not be ready yet, the post goes on and the server shows the dialog's screen.
          if (openDialog(dialogId)) e.preventDefault();
        }
      }}
    >
      <CsrfField />
      {/* The step and sub-step a post answers, so a stale tab cannot answer another screen. */}
      <input type="hidden" name="step" value="TAX_INFO_STEP" />
      <input type="hidden" name="subStep" value="0" />
      {attested && <input type="hidden" name="intent" value="attest" />}
      <QuestionFieldset id="tax-liability" legend={legend} error={error}>
        {options.map((o) => (
          <div key={o.value} className="checkbox-card">
            <input type="radio" id={`tax-liability-${o.value}`} name="liability" value={o.value} defaultChecked={props.chosen === o.value} />
            <label htmlFor={`tax-liability-${o.value}`}>{o.label}</label>
          </div>
        ))}
      </QuestionFieldset>
      <button type="submit" className="btn">
        {continueLabel}
      </button>
    </form>
  );
}
