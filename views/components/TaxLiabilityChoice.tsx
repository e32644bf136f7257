// The tax step's `liability` screen (customer-information.md §2.3, §4.5, §4.7): only the home country, the USA, or
// other countries. The taxLiability island (views/pages/TaxInformationStepView.tsx TaxLiabilityForm). Without
// JavaScript it posts and the server shows the FATCA dialog as its own screen (`fatca`); hydrated, Continue with USA, or
// home only with an address abroad, opens the FATCA modal (`dialogId`), whose attest posts intent=attest, which the
// server checks really is a FATCA case.
import { useEffect, useState } from 'react';
import { decideLiability, taxLiabilities, type TaxLiability } from '../../shared/taxInformation.ts';
import { useConfirmThenSubmit } from '../../client/components/useConfirmThenSubmit.ts';
import { QuestionFieldset } from './QuestionFieldset.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

export interface TaxLiabilityChoiceProps {
  action: string;
  fields: ScreenFieldValues;
  legend: string;
  options: { value: TaxLiability; label: string }[];
  chosen: TaxLiability | null;
  error: string | null;
  continue: string;
  /** The FATCA modal. */
  dialogId: string;
  /** The market, and the country of the address (the residency step's address abroad, otherwise home). */
  home: string;
  addressCountry: string;
}

const isLiability = (value: unknown): value is TaxLiability => taxLiabilities.some((l) => l === value);

export function TaxLiabilityChoice(props: TaxLiabilityChoiceProps) {
  const { home, addressCountry } = props;
  const [chosen, setChosen] = useState(props.chosen);
  const { form, confirmed, askFirst } = useConfirmThenSubmit(props.dialogId, { confirmOn: 'primary' });

  // A choice made before the island hydrated counts: the form holds it.
  useEffect(() => {
    const answer = form.current && new FormData(form.current).get('liability');
    if (isLiability(answer)) setChosen(answer);
  }, [form]);

  return (
    <form
      ref={form}
      method="post"
      action={props.action}
      noValidate
      onSubmit={(e) => askFirst(e, chosen !== null && decideLiability(chosen, home, addressCountry) === 'fatcaDialog')}
    >
      <ScreenFields fields={props.fields} />
      {confirmed && <input type="hidden" name="intent" value="attest" />}
      <QuestionFieldset id="tax-liability" legend={props.legend} error={props.error}>
        {props.options.map((o) => (
          <div key={o.value} className="checkbox-card">
            <input
              type="radio"
              id={`tax-liability-${o.value}`}
              name="liability"
              value={o.value}
              checked={chosen === o.value}
              onChange={() => setChosen(o.value)}
            />
            <label htmlFor={`tax-liability-${o.value}`}>{o.label}</label>
          </div>
        ))}
      </QuestionFieldset>
      <button type="submit" className="btn">
        {props.continue}
      </button>
    </form>
  );
}
