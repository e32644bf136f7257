// Citizenship's `choice` screen (customer-information.md §2.3, §4.7): 'only a citizen of <market>' or
// 'another country'. Without JavaScript the form posts and the server shows the CITIZENSHIP dialog as its
// own screen (`dialog`). In the browser choosing 'another country' and pressing Continue opens the modal
// instead (the dialog island, id dialogId): its primary action resets the answer to the market's, its
// continue posts the choice confirmed 700 ms later (customer-information §9: the dialog closes first).
import { useState } from 'react';
import { QuestionFieldset } from '../components/QuestionFieldset.tsx';
import { useConfirmThenSubmit } from '../components/useConfirmThenSubmit.ts';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';

export const CITIZENSHIP_CONTINUE_DELAY_MS = 700;

export interface CitizenshipChoiceProps {
  action: string;
  /** The hidden step and screen the form answers. */
  fields: ScreenFieldValues;
  dialogId: string;
  chosen: 'inOfficeCitizenship' | 'otherCitizenships' | null;
  legend: string;
  onlyHome: string;
  /** The market's flag emoji, decorative (the text names the country). */
  flag: string;
  other: string;
  continueLabel: string;
  error: string | null;
}

export default function CitizenshipChoice(props: CitizenshipChoiceProps) {
  const { action, fields, dialogId, legend, onlyHome, flag, other, continueLabel, error } = props;
  const [chosen, setChosen] = useState(props.chosen);
  const { form, confirmed, askFirst } = useConfirmThenSubmit(dialogId, {
    confirmOn: 'secondary',
    delayMs: CITIZENSHIP_CONTINUE_DELAY_MS,
    // The dialog's primary action (customer-information §4.7): back to the market's answer.
    onDecline: () => setChosen('inOfficeCitizenship'),
  });

  return (
    <form ref={form} method="post" action={action} noValidate onSubmit={(e) => askFirst(e, chosen === 'otherCitizenships')}>
      <ScreenFields fields={fields} />
      <input type="hidden" name="intent" value="choose" />
      {confirmed && <input type="hidden" name="confirmed" value="yes" />}
      <QuestionFieldset id="citizenship-choice" legend={legend} error={error}>
        <div className="choice-card">
          <input
            type="radio"
            id="citizenship-home"
            name="choice"
            value="inOfficeCitizenship"
            checked={chosen === 'inOfficeCitizenship'}
            onChange={() => setChosen('inOfficeCitizenship')}
          />
          <label htmlFor="citizenship-home">
            <span className="flag" aria-hidden="true">
              {flag}
            </span>{' '}
            <span className="choice-card__title">{onlyHome}</span>
          </label>
        </div>
        <div className="choice-card">
          <input
            type="radio"
            id="citizenship-other"
            name="choice"
            value="otherCitizenships"
            checked={chosen === 'otherCitizenships'}
            onChange={() => setChosen('otherCitizenships')}
          />
          <label htmlFor="citizenship-other">
            <span className="choice-card__title">{other}</span>
          </label>
        </div>
      </QuestionFieldset>
      <button type="submit" className="btn">
        {continueLabel}
      </button>
    </form>
  );
}
