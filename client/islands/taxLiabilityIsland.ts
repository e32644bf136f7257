// The tax step's `liability` screen (customer-information.md §2.3, §4.5, §4.7): only the home country, the USA, or
// other countries. The server renders the form (views/pages/TaxInformationStepView.tsx TaxLiabilityForm). Without
// JavaScript it posts and the server shows the FATCA dialog as its own screen (`fatca`) when the choice calls for it.
// With this script Continue with such a choice (USA, or home only with an address abroad) opens the FATCA modal (the
// dialog island, id dialogId) in place instead: its primary action (attest) posts this form with intent=attest,
// which the server checks really is a FATCA case before submitting home only; cancel just closes the modal. Plain
// DOM, no React (issue 23 item 4).
import { decideLiability, taxLiabilities, type TaxLiability } from '../../shared/taxInformation.ts';
import { confirmThenSubmit } from '../components/confirmThenSubmit.ts';

export interface TaxLiabilityScriptProps {
  dialogId: string;
  /** The market, and the country of the address (the residency step's address abroad, otherwise home). */
  home: string;
  addressCountry: string;
}

const isLiability = (value: unknown): value is TaxLiability => taxLiabilities.some((l) => l === value);

export default function enhanceTaxLiability(el: HTMLElement, { dialogId, home, addressCountry }: TaxLiabilityScriptProps): void {
  confirmThenSubmit(el, {
    dialogId,
    confirmOn: 'primary',
    field: { name: 'intent', value: 'attest' },
    needsConfirming: (form) => {
      const chosen = new FormData(form).get('liability');
      return isLiability(chosen) && decideLiability(chosen, home, addressCountry) === 'fatcaDialog';
    },
  });
}
