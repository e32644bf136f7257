// Swedish BankID identification views (identification-routing-creation §2 "Identification screens"): the device choice on
// mobile/tablet, the QR view (other device) and the same-device view. The order state itself is the bankidQr island
// (views/components/BankidQrStatus.tsx), which keeps itself up to date in the browser.
import type { Translate } from '../../shared/i18n.ts';
import { BankidQrOrder, type BankidQrProps } from '../components/BankidQrStatus.tsx';
import { CsrfField } from '../components/CsrfField.tsx';

/**
 * Header Back on the BankID screens: like the shell's Back (customer type none), but through our own
 * route so the running order is cancelled at BankID first. A form post: works without JavaScript.
 */
export function BankidBackButton({ t, action }: { t: Translate; action: string }) {
  return (
    <form method="post" action={action} className="site-header__back">
      <CsrfField />
      <button type="submit" className="btn btn-secondary btn--small">
        <span aria-hidden="true">‹</span> {t('shell.back')}
      </button>
    </form>
  );
}

/** Mobile and tablet: BankID on this device, or on another device with the QR code. */
export function BankidChoicePage({ t, action }: { t: Translate; action: string }) {
  return (
    <>
      <h1>{t('bankid.title')}</h1>
      <p>{t('bankid.choice.intro')}</p>
      <form method="post" action={action} className="bankid-choice">
        <CsrfField />
        <button type="submit" className="btn" name="mode" value="SAME_DEVICE">
          {t('bankid.choice.thisDevice')}
        </button>
        <button type="submit" className="btn btn-secondary" name="mode" value="QR">
          {t('bankid.choice.otherDevice')}
        </button>
      </form>
    </>
  );
}

export function BankidPage({ t, qr, mode, modeAction }: { t: Translate; qr: BankidQrProps; mode: 'QR' | 'SAME_DEVICE'; modeAction: string }) {
  if (mode === 'SAME_DEVICE') {
    return (
      <>
        <h1>{t('bankid.title')}</h1>
        <ol className="instructions">
          <li>{t('bankid.sameDevice.instructions.code')}</li>
          <li>{t('bankid.sameDevice.instructions.sign')}</li>
        </ol>
        <BankidQrOrder qr={qr} />
      </>
    );
  }
  return (
    <>
      <h1>{t('bankid.title')}</h1>
      <ol className="instructions">
        <li>{t('bankid.instructions.open')}</li>
        <li>{t('bankid.instructions.scan')}</li>
        <li>{t('bankid.instructions.code')}</li>
      </ol>
      <BankidQrOrder qr={qr} />
      {qr.state === 'pending' && (
        <>
          <p className="bankid-or">{t('bankid.or')}</p>
          <form method="post" action={modeAction}>
            <CsrfField />
            <button type="submit" className="btn btn-secondary" name="mode" value="SAME_DEVICE">
              {t('bankid.switchToThisDevice')}
            </button>
          </form>
        </>
      )}
    </>
  );
}
