// Citizenship's `choice` screen (customer-information.md §2.3, §4.7): 'only a citizen of <market>' or 'another
// country'. The citizenshipChoice island (views/pages/CitizenshipStepView.tsx CitizenshipChoiceStep). Without JavaScript
// it posts and the server shows the CITIZENSHIP dialog as its own screen (`dialog`); hydrated, 'another country' and
// Continue open the modal (`dialogId`), whose continue posts the choice confirmed 700 ms later (§9: the dialog closes
// first).
import { useEffect, useState, type ReactNode } from 'react';
import type { CitizenshipChoice as Choice } from '../../shared/citizenship.ts';
import { useConfirmThenSubmit } from '../../client/components/useConfirmThenSubmit.ts';
import { QuestionFieldset } from './QuestionFieldset.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

export const CITIZENSHIP_CONTINUE_DELAY_MS = 700;

export interface CitizenshipChoiceProps {
  action: string;
  fields: ScreenFieldValues;
  chosen: Choice | null;
  error: string | null;
  /** The CITIZENSHIP modal. */
  dialogId: string;
  texts: {
    title: string;
    /** The market's flag (decorative) and 'I am only a citizen of <market>'. */
    flag: string;
    onlyHome: string;
    other: string;
    continue: string;
  };
}

const isChoice = (value: unknown): value is Choice => value === 'inOfficeCitizenship' || value === 'otherCitizenships';

export function CitizenshipChoice({ action, fields, error, dialogId, texts, ...props }: CitizenshipChoiceProps) {
  const [chosen, setChosen] = useState(props.chosen);
  const { form, confirmed, askFirst } = useConfirmThenSubmit(dialogId, {
    confirmOn: 'secondary',
    delayMs: CITIZENSHIP_CONTINUE_DELAY_MS,
    // The dialog's primary action (customer-information §4.7): back to the market's answer.
    onDecline: () => setChosen('inOfficeCitizenship'),
  });

  // A choice made before the island hydrated counts: the form holds it.
  useEffect(() => {
    const answer = form.current && new FormData(form.current).get('choice');
    if (isChoice(answer)) setChosen(answer);
  }, [form]);

  const radio = (value: Choice, id: string, label: ReactNode) => (
    <div className="choice-card">
      <input type="radio" id={id} name="choice" value={value} checked={chosen === value} onChange={() => setChosen(value)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
  return (
    <form ref={form} method="post" action={action} noValidate onSubmit={(e) => askFirst(e, chosen === 'otherCitizenships')}>
      <ScreenFields fields={fields} />
      <input type="hidden" name="intent" value="choose" />
      {confirmed && <input type="hidden" name="confirmed" value="yes" />}
      <QuestionFieldset id="citizenship-choice" legend={texts.title} error={error}>
        {radio(
          'inOfficeCitizenship',
          'citizenship-home',
          <>
            <span className="flag" aria-hidden="true">
              {texts.flag}
            </span>{' '}
            <span className="choice-card__title">{texts.onlyHome}</span>
          </>,
        )}
        {radio('otherCitizenships', 'citizenship-other', <span className="choice-card__title">{texts.other}</span>)}
      </QuestionFieldset>
      <button type="submit" className="btn">
        {texts.continue}
      </button>
    </form>
  );
}
