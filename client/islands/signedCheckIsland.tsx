// Milestone three after the signing page has been opened (customer-information §4.8): "I have signed" posts a
// customer-creation check, and on success the person continues to customer creation. With JavaScript the
// check is posted by itself when the page becomes visible again (the person signed in another tab or app and
// came back), marked `auto` so that a person who has not signed yet just sees the page again, without a message.
import { useEffect, useRef } from 'react';
import { ScreenFields, type ScreenFieldValues } from '../../views/components/ScreenForm.tsx';

export interface SignedCheckProps {
  action: string;
  fields: ScreenFieldValues;
  label: string;
}

export default function SignedCheck({ action, fields, label }: SignedCheckProps) {
  const form = useRef<HTMLFormElement>(null);
  const auto = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let hidden = document.visibilityState === 'hidden';
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hidden = true;
        return;
      }
      if (!hidden || !form.current || !auto.current) return;
      hidden = false;
      auto.current.disabled = false;
      form.current.requestSubmit();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  return (
    <form ref={form} method="post" action={action} className="actions">
      <ScreenFields fields={fields} />
      <input type="hidden" name="intent" value="signed" />
      {/* Enabled only for the check the page posts by itself. */}
      <input ref={auto} type="hidden" name="auto" value="1" disabled />
      <button type="submit" className="btn btn-secondary">
        {label}
      </button>
    </form>
  );
}
