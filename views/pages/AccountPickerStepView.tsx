// Account picker view (customer-information.md §2.3, §4.2): one card per account, the exclusive
// accounts' confirmation dialogs (a modal with JS, the `exclusive` screen without), the Danish
// campaign question, and a 'Read more' drawer per account (native <details> without JS; a bottom sheet or
// side drawer with JS).
import type { Translate } from '../../shared/i18n.ts';
import type { AccountTypeEntry } from '../../shared/accountPicker.ts';
import { accountCode } from '../../shared/accountPicker.ts';
import type { AccountTypeWithCountry, AgreementDocument } from '../../shared/contracts/brokerageContract.ts';
import { Island } from '../components/Island.tsx';
import type { AccountPickerEnhancerProps } from '../../client/islands/accountPickerIsland.ts';
import { Dialog, ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';

export interface PickerCard extends AccountTypeEntry {
  /** Locked off (DSK after 'yes' in the campaign) or EPK without DEP/ASK. */
  disabled: boolean;
  /** null: the documents could not be fetched. */
  documents: AgreementDocument[] | null;
}

export interface AccountPickerViewProps {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  /** The hidden fields of the exclusive accounts' dialog (the no-JS screen's; the modal only closes). */
  dialogFields: ScreenFieldValues;
  cards: PickerCard[];
  error: string | null;
  campaign: boolean;
  dskExisting?: 'yes' | 'no';
  dskLocked: boolean;
  esaDeclined: boolean;
  depositGuaranteeUrl: string;
}

/** The 'Read more' drawer's content: the account's precontractual documents and the deposit guarantee. */
function ReadMoreContent({ t, card, headingId, depositGuaranteeUrl }: { t: Translate; card: PickerCard; headingId: string; depositGuaranteeUrl: string }) {
  const code = accountCode(card.accountTypeWithCountry);
  return (
    <section className="drawer" aria-labelledby={headingId}>
      <h2 id={headingId} className="drawer__title">
        {t('accountPicker.readMore.title', { account: t(`account.${code}`) })}
      </h2>
      <h3>{t('accountPicker.readMore.documents')}</h3>
      {card.documents === null ? (
        <p>{t('accountPicker.readMore.unavailable')}</p>
      ) : (
        <ul className="link-list">
          {card.documents.map((d) => (
            <li key={d.url}>
              <a href={d.url} target="_blank" rel="noopener noreferrer">
                {d.title}
              </a>
            </li>
          ))}
        </ul>
      )}
      <p>
        <a href={depositGuaranteeUrl}>{t('accountPicker.depositGuarantee')}</a>
      </p>
    </section>
  );
}

/** customer-information §4.2/§5 confirmation dialog of an exclusive account (DSK_DK, ESA_FI). */
export function exclusiveDialog(
  t: Translate,
  account: AccountTypeWithCountry,
  form: { action: string; fields: ScreenFieldValues },
  posted: readonly string[],
  mode: 'modal' | 'screen',
  warning?: string,
): DialogProps {
  const key = account === 'DSK_DK' ? 'dsk' : 'esa';
  const action = form.action;
  const fields = (intent: string) => ({ ...form.fields, intent, account, accounts: posted.join(',') });
  return {
    id: `confirm-${account}`,
    title: t(`accountPicker.${key}.dialog.title`),
    text: [t(`accountPicker.${key}.dialog.text`)],
    warning,
    checkbox: { name: 'confirm', label: t(`accountPicker.${key}.dialog.checkbox`) },
    primary: { label: t('accountPicker.dialog.next'), action, fields: fields('confirm') },
    secondary: { label: t('accountPicker.dialog.cancel'), action, fields: fields('cancel') },
    // With JS both only close: the picker island keeps or unticks the box (client/islands/accountPickerIsland.ts).
    closes: mode === 'modal' ? ['primary', 'secondary'] : undefined,
  };
}

export function ExclusiveDialogScreen(props: DialogProps) {
  return <Dialog {...props} />;
}

export function AccountPickerStep(p: AccountPickerViewProps) {
  const { t, cards } = p;
  const exclusive = cards.filter((c) => c.exclusive).map((c) => c.accountTypeWithCountry);
  return (
    <>
      <form method="post" action={p.action} noValidate id="account-picker">
        <ScreenFields fields={p.fields} />
        <fieldset aria-describedby={p.error ? 'picker-error' : undefined}>
          <legend>
            <h1>{t('accountPicker.title')}</h1>
          </legend>
          {p.error && (
            <p id="picker-error" className="error-summary" role="alert">
              {p.error}
            </p>
          )}
          {cards.map((a) => {
            const code = accountCode(a.accountTypeWithCountry);
            const id = `account-${a.accountTypeWithCountry}`;
            const isDsk = a.accountTypeWithCountry === 'DSK_DK';
            return (
              <div key={a.accountTypeWithCountry} className="picker-account">
                <div className={`checkbox-card${a.mandatory || a.disabled ? ' checkbox-card--locked' : ''}`}>
                  {/* A disabled box is not posted, so a locked account also travels as a hidden field. */}
                  {a.mandatory && <input type="hidden" name="accounts" value={a.accountTypeWithCountry} />}
                  <input
                    type="checkbox"
                    id={id}
                    name="accounts"
                    value={a.accountTypeWithCountry}
                    defaultChecked={a.selected}
                    disabled={a.mandatory || a.disabled}
                    aria-describedby={`${id}-text`}
                  />
                  <label htmlFor={id}>
                    <span className="checkbox-card__title">{t(`account.${code}`)}</span>
                    {a.popular && <span className="badge">{t('accountPicker.popular')}</span>}
                    {a.mandatory && <span className="badge">{t('accountPicker.mandatory')}</span>}
                  </label>
                  <p id={`${id}-text`} className="checkbox-card__text">
                    {t(`account.${code}.text`)}
                  </p>
                </div>
                {isDsk && !p.campaign && (
                  // Shown (by CSS) while DSK is ticked: customer-information §4.2 info outside the campaign.
                  <p className="picker-extra banner" id="dsk-info">
                    {t('accountPicker.dsk.info')}
                  </p>
                )}
                {isDsk && p.campaign && (
                  <fieldset className={`picker-extra${p.dskLocked || p.dskExisting ? ' picker-extra--shown' : ''}`} id="dsk-question">
                    <legend>{t('accountPicker.dsk.question')}</legend>
                    {(['yes', 'no'] as const).map((v) => (
                      <div key={v} className="radio">
                        <input type="radio" id={`dsk-existing-${v}`} name="dskExisting" value={v} defaultChecked={p.dskExisting === v} />
                        <label htmlFor={`dsk-existing-${v}`}>{t(`accountPicker.dsk.${v}`)}</label>
                      </div>
                    ))}
                  </fieldset>
                )}
                {isDsk && (
                  <p className="banner banner--warning" id="dsk-existing-warning" role="status" hidden={!p.dskLocked}>
                    {t('accountPicker.dsk.existingWarning')}
                  </p>
                )}
                {a.accountTypeWithCountry === 'ESA_FI' && (
                  <p className="banner banner--warning" id="esa-declined-warning" role="status" hidden={!p.esaDeclined}>
                    {t('accountPicker.esa.declinedWarning')}
                  </p>
                )}
                {/* Without JS the drawer opens in place; with JS the same content opens as a bottom sheet (small
                    screens) or a side drawer (wider ones), see readMoreSheet. */}
                <details className="read-more" data-sheet={`${id}-sheet`}>
                  <summary className="link-button">
                    {t('accountPicker.readMore')}
                    <span className="visually-hidden"> {t(`account.${code}`)}</span>
                  </summary>
                  <ReadMoreContent t={t} card={a} headingId={`${id}-drawer-title`} depositGuaranteeUrl={p.depositGuaranteeUrl} />
                </details>
              </div>
            );
          })}
        </fieldset>
        <button type="submit" className="btn">
          {t('accountPicker.continue')}
        </button>
      </form>
      {/* The sheets live outside the form: a <form method="dialog"> cannot nest in it. */}
      {cards.map((a) => {
        const id = `account-${a.accountTypeWithCountry}`;
        return (
          <dialog key={id} id={`${id}-sheet`} className="sheet" aria-labelledby={`${id}-sheet-title`}>
            <ReadMoreContent t={t} card={a} headingId={`${id}-sheet-title`} depositGuaranteeUrl={p.depositGuaranteeUrl} />
            <form method="dialog">
              <button type="submit" className="btn btn-secondary">
                {t('shell.close')}
              </button>
            </form>
          </dialog>
        );
      })}
      {exclusive.map((account) => (
        <ModalDialog key={account} {...exclusiveDialog(t, account, { action: p.action, fields: p.dialogFields }, [], 'modal')} />
      ))}
      <Island name="accountPicker" props={{ formId: 'account-picker', exclusive, campaign: p.campaign } satisfies AccountPickerEnhancerProps} />
    </>
  );
}
