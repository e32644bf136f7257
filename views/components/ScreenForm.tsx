// The hidden fields every customer-information form posts (customer-information.md §2.3): the step and
// the screen it answers, and the CSRF token. The page machine (server/stages/customerInformation/customerInformationPage.tsx)
// refuses a post whose step and screen are not the ones shown, the same way for every form.
//
//   <form method="post" action={action}><ScreenFields fields={fields} /> … </form>
import { CsrfField } from './CsrfField.tsx';

/** What the machine gives a view for its forms: `ctx.fields()` on the server. */
export interface ScreenFieldValues {
  step: string;
  screen: string;
}

export function ScreenFields({ fields }: { fields: ScreenFieldValues }) {
  return (
    <>
      <CsrfField />
      <input type="hidden" name="step" value={fields.step} />
      <input type="hidden" name="screen" value={fields.screen} />
    </>
  );
}
