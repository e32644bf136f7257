// The tax step's `liability` screen (customer-information.md §2.3, §4.5, §4.7): only the home country, the
// USA, or other countries. Without JavaScript the form posts and the server shows the FATCA dialog as its
// own screen (`fatca`) when the choice calls for it. In the browser Continue with such a choice (USA, or
// home only with an address abroad) opens the FATCA modal (the dialog island, id dialogId) in place
// instead: its primary action (attest) posts this form with intent=attest, which the server checks really
// is a FATCA case before submitting home only; cancel just closes the modal.
import { decideLiability, type TaxLiability as Liability } from '../../shared/taxInformation.ts';
import { QuestionFieldset } from '../components/QuestionFieldset.tsx';
import { useConfirmThenSubmit } from '../components/useConfirmThenSubmit.ts';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';

export interface TaxLiabilityProps {
  action: string;
  /** The hidden step and screen the form answers. */
  fields: ScreenFieldValues;
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
  const { action, fields, dialogId, home, addressCountry, legend, options, continueLabel, error } = props;
  const { form, confirmed, askFirst } = useConfirmThenSubmit(dialogId, { confirmOn: 'primary' });

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
        askFirst(e, liability !== undefined && decideLiability(liability, home, addressCountry) === 'fatcaDialog');
      }}
    >
      <ScreenFields fields={fields} />
      {confirmed && <input type="hidden" name="intent" value="attest" />}
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
