// Citizenship sub-step 0 (customer-information.md §2.3, §4.7): 'only a citizen of <market>' or 'another
// country'. Without JavaScript the form posts and the server shows the CITIZENSHIP dialog as its own
// screen. In the browser choosing 'another country' and pressing Continue opens the modal instead (the
// dialog island, id dialogId): its primary action resets the answer to the market's, its continue
// posts the choice 700 ms later (§9: the dialog closes first).
import { useRef, useState } from 'react';
import { openDialog, useDialogClose } from './dialog.tsx';
import { QuestionFieldset } from '../components/QuestionFieldset.tsx';
import { CsrfField } from '../../views/components/CsrfField.tsx';

export const CITIZENSHIP_CONTINUE_DELAY_MS = 700;

export interface CitizenshipChoiceProps {
  action: string;
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
  const { action, dialogId, legend, onlyHome, flag, other, continueLabel, error } = props;
  const [chosen, setChosen] = useState(props.chosen);
  const [confirmed, setConfirmed] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useDialogClose(dialogId, (result) => {
    if (result === 'primary') {
      setChosen('inOfficeCitizenship');
      return;
    }
    setConfirmed(true);
    setTimeout(() => form.current?.submit(), CITIZENSHIP_CONTINUE_DELAY_MS);
  });

  return (
    <form
      ref={form}
      method="post"
      action={action}
      noValidate
      onSubmit={(e) => {
        if (chosen === 'otherCitizenships' && !confirmed) {
          e.preventDefault();
          openDialog(dialogId);
        }
      }}
    >
      <CsrfField />
      <input type="hidden" name="step" value="CITIZENSHIP_STEP" />
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
