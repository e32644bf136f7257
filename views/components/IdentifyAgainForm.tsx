// "Identify again" after the brokerage session has ended: choosing Private again starts the identification in this
// browser (the same person finds what they typed kept).
import type { Translate } from '../../shared/i18n.ts';
import { routes } from '../../shared/routes.ts';
import { CsrfField } from './CsrfField.tsx';

export function IdentifyAgainForm({ t }: { t: Translate }) {
  return (
    <form method="post" action={routes.customerType}>
      <CsrfField />
      <button type="submit" name="customerType" value="private" className="btn">
        {t('customerInformation.error.SESSION_EXPIRED_ERROR.identifyAgain')}
      </button>
    </form>
  );
}
