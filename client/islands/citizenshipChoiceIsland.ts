// Citizenship's `choice` screen (customer-information.md §2.3, §4.7): 'only a citizen of <market>' or 'another
// country'. The server renders the form (views/pages/CitizenshipStepView.tsx CitizenshipChoiceStep). Without
// JavaScript it posts and the server shows the CITIZENSHIP dialog as its own screen (`dialog`). With this script
// choosing 'another country' and pressing Continue opens the modal instead (the dialog island, id dialogId): its
// primary action resets the answer to the market's, its continue posts the choice confirmed 700 ms later
// (customer-information §9: the dialog closes first). Plain DOM, no React (issue 23 item 4).
import { confirmThenSubmit } from '../components/confirmThenSubmit.ts';

export const CITIZENSHIP_CONTINUE_DELAY_MS = 700;

export interface CitizenshipChoiceScriptProps {
  dialogId: string;
}

export default function enhanceCitizenshipChoice(el: HTMLElement, { dialogId }: CitizenshipChoiceScriptProps): void {
  confirmThenSubmit(el, {
    dialogId,
    confirmOn: 'secondary',
    field: { name: 'confirmed', value: 'yes' },
    delayMs: CITIZENSHIP_CONTINUE_DELAY_MS,
    needsConfirming: (form) => new FormData(form).get('choice') === 'otherCitizenships',
    // The dialog's primary action (customer-information §4.7): back to the market's answer.
    onDecline: (form) => {
      const home = form.querySelector<HTMLInputElement>('input[name=choice][value=inOfficeCitizenship]');
      if (home) home.checked = true;
    },
  });
}
