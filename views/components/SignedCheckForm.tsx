// Milestone three after the signing page has been opened (customer-information §4.8): "I have signed" posts a
// customer-creation check, a plain form post, and on success the person continues to customer creation. With
// JavaScript the signedCheck island (client/islands/signedCheckIsland.tsx) also posts the check by itself when the page
// becomes visible again (the person signed in another tab or app and came back), marked `auto` so that a person who has
// not signed yet just sees the page again, without a message.
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';
import { Island } from './Island.tsx';

/** Milestone three's "I have signed" (customer-information §4.8). */
export interface SignedCheckProps {
  action: string;
  fields: ScreenFieldValues;
  label: string;
}

/** The form (the signedCheck island's component). */
export function SignedCheck({ action, fields, label }: SignedCheckProps) {
  const form = useRef<HTMLFormElement>(null);
  // The auto mark is posted only with the check the page sends by itself, never with a click on the button.
  const [auto, setAuto] = useState(false);

  useEffect(() => {
    let hidden = document.visibilityState === 'hidden';
    const onVisibilityChange = () => {
      if (document.visibilityState === 'hidden') {
        hidden = true;
        return;
      }
      if (!hidden) return;
      hidden = false;
      // The form's data is read as it is submitted: the mark is in the page for exactly that post.
      flushSync(() => setAuto(true));
      form.current?.requestSubmit();
      setAuto(false);
    };
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => document.removeEventListener('visibilitychange', onVisibilityChange);
  }, []);

  return (
    <form ref={form} method="post" action={action} className="actions">
      <ScreenFields fields={fields} />
      <input type="hidden" name="intent" value="signed" />
      <input type="hidden" name="auto" value="1" disabled={!auto} />
      <button type="submit" className="btn btn-secondary">
        {label}
      </button>
    </form>
  );
}

/** "I have signed" in the milestone step: the signedCheck island. */
export function SignedCheckForm(props: SignedCheckProps) {
  return <Island name="signedCheck" component={SignedCheck} props={props} />;
}
