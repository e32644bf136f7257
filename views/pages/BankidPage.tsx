// Swedish BankID identification with the animated QR code (spec §2 "Identification screens").
import type { Translate } from '../../shared/i18n.ts';
import { Island } from '../../server/render.tsx';
import BankidQr, { type BankidQrProps } from '../../client/islands/bankidQr.tsx';

export function BankidPage({ t, qr, cancelAction }: { t: Translate; qr: BankidQrProps; cancelAction: string }) {
  return (
    <>
      <h1>{t('bankid.title')}</h1>
      <ol className="instructions">
        <li>{t('bankid.instructions.open')}</li>
        <li>{t('bankid.instructions.scan')}</li>
        <li>{t('bankid.instructions.code')}</li>
      </ol>
      <Island name="bankidQr" component={BankidQr} props={qr} />
      <form method="post" action={cancelAction}>
        <button type="submit" className="btn btn-secondary">
          {t('bankid.cancel')}
        </button>
      </form>
    </>
  );
}
