// The account picker form (customer-information.md §2.3, §4.2): the accountPicker island, rendered by the server
// (views/pages/AccountPickerStepView.tsx) and hydrated in the browser. Without JavaScript a plain form post on which the
// server applies every rule, the exclusive accounts' confirmations screens of their own. Hydrated: EPK follows DEP/ASK,
// DSK_DK and ESA_FI confirm in a modal, the Danish campaign question locks or confirms DSK, and "Read more" opens as a
// sheet (docs/islands.md).
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { AccountTypeWithCountry, AgreementDocument } from '../../shared/contracts/brokerageContract.ts';
import { epkSelectable } from '../../shared/accountPicker.ts';
import { onDialogClose, openDialog } from '../../client/components/dialogEvents.ts';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

export interface AccountPickerCard {
  account: AccountTypeWithCountry;
  /** The account's name and its description. */
  title: string;
  text: string;
  /** The 'Read more' drawer's heading. */
  readMoreTitle: string;
  popular: boolean;
  mandatory: boolean;
  exclusive: boolean;
  selected: boolean;
  /** null: the documents could not be fetched. */
  documents: AgreementDocument[] | null;
}

export interface AccountPickerProps {
  action: string;
  fields: ScreenFieldValues;
  cards: AccountPickerCard[];
  error: string | null;
  /** The Danish ASK campaign: DSK asks whether the person has one at another bank. */
  campaign: boolean;
  dskExisting: 'yes' | 'no' | null;
  /** DSK locked off (the campaign's yes). */
  dskLocked: boolean;
  esaDeclined: boolean;
  depositGuaranteeUrl: string;
  texts: {
    title: string;
    popular: string;
    mandatory: string;
    continue: string;
    readMore: string;
    readMoreDocuments: string;
    readMoreUnavailable: string;
    depositGuarantee: string;
    close: string;
    dskInfo: string;
    dskQuestion: string;
    dskYes: string;
    dskNo: string;
    dskExistingWarning: string;
    esaDeclinedWarning: string;
  };
}

/** The modal confirming an exclusive account (views/pages/AccountPickerStepView.tsx exclusiveDialog). */
export const exclusiveDialogId = (account: string) => `confirm-${account}`;

const cardId = (account: string) => `account-${account}`;

/** The 'Read more' drawer's content: the account's precontractual documents and the deposit guarantee. */
function ReadMoreContent({
  card,
  headingId,
  texts,
  depositGuaranteeUrl,
}: { card: AccountPickerCard; headingId: string } & Pick<AccountPickerProps, 'texts' | 'depositGuaranteeUrl'>) {
  return (
    <section className="drawer" aria-labelledby={headingId}>
      <h2 id={headingId} className="drawer__title">
        {card.readMoreTitle}
      </h2>
      <h3>{texts.readMoreDocuments}</h3>
      {card.documents === null ? (
        <p>{texts.readMoreUnavailable}</p>
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
        <a href={depositGuaranteeUrl}>{texts.depositGuarantee}</a>
      </p>
    </section>
  );
}

/** EPK only while DEP or ASK is ticked (customer-information §4.2): without them it is unticked. */
const withEpkRule = (ticked: string[]) => (epkSelectable(ticked) ? ticked : ticked.filter((a) => a !== 'EPK_NO'));

export function AccountPicker(p: AccountPickerProps) {
  const { cards, texts, campaign } = p;
  const form = useRef<HTMLFormElement>(null);
  const [ticked, setTicked] = useState<string[]>(() => cards.filter((c) => c.selected).map((c) => c.account));
  const [dskExisting, setDskExisting] = useState(p.dskExisting);
  const [dskLocked, setDskLocked] = useState(p.dskLocked);
  const [esaDeclined, setEsaDeclined] = useState(p.esaDeclined);
  /** The exclusive accounts confirmed in their modal, posted as `confirmed`. */
  const [confirmed, setConfirmed] = useState<string[]>([]);
  const sheets = useRef<Record<string, HTMLDialogElement | null>>({});
  const returnFocus = useRef<HTMLElement | null>(null);
  const exclusive = cards.filter((c) => c.exclusive).map((c) => c.account);
  const exclusiveKey = exclusive.join(',');

  // What was ticked before the island hydrated counts: the form holds it (a disabled box is not in it, nor ticked).
  useEffect(() => {
    if (!form.current) return;
    const data = new FormData(form.current);
    setTicked(withEpkRule(data.getAll('accounts').map(String)));
    const existing = data.get('dskExisting');
    if (existing === 'yes' || existing === 'no') setDskExisting(existing);
  }, []);

  // How an exclusive account's modal closed: Next confirms it, Cancel or Esc unticks it.
  useEffect(() => {
    const offs = (exclusiveKey ? exclusiveKey.split(',') : []).map((account) =>
      onDialogClose(exclusiveDialogId(account), (result) => {
        if (result === 'primary') {
          setConfirmed((list) => [...list.filter((a) => a !== account), account]);
          return;
        }
        setTicked((list) => withEpkRule(list.filter((a) => a !== account)));
        setConfirmed((list) => list.filter((a) => a !== account));
        if (account === 'ESA_FI') setEsaDeclined(true);
        if (account === 'DSK_DK' && campaign) setDskExisting(null);
      }),
    );
    return () => offs.forEach((off) => off());
  }, [exclusiveKey, campaign]);

  const onAccount = (account: AccountTypeWithCountry, on: boolean) => {
    setTicked(withEpkRule(on ? [...ticked.filter((a) => a !== account), account] : ticked.filter((a) => a !== account)));
    if (!exclusive.includes(account)) return;
    setConfirmed((list) => list.filter((a) => a !== account));
    setEsaDeclined(false);
    // In the Danish campaign the question decides first (CSS shows it while DSK is ticked).
    if (on && !(campaign && account === 'DSK_DK')) openDialog(exclusiveDialogId(account));
  };
  const onDskExisting = (value: 'yes' | 'no') => {
    setDskExisting(value);
    setDskLocked(value === 'yes');
    setTicked((list) => [...list.filter((a) => a !== 'DSK_DK'), ...(value === 'no' ? ['DSK_DK'] : [])]);
    if (value === 'no') openDialog(exclusiveDialogId('DSK_DK'));
  };
  const openSheet = (e: MouseEvent<HTMLElement>, account: string) => {
    const sheet = sheets.current[account];
    if (!sheet) return;
    e.preventDefault();
    // Native modal: focus moves in and the page is inert; on close focus goes back to 'Read more'.
    returnFocus.current = e.currentTarget;
    sheet.showModal();
  };
  const epkAllowed = epkSelectable(ticked);

  return (
    <>
      <form ref={form} method="post" action={p.action} noValidate id="account-picker">
        <ScreenFields fields={p.fields} />
        <fieldset aria-describedby={p.error ? 'picker-error' : undefined}>
          <legend>
            <h1>{texts.title}</h1>
          </legend>
          {p.error && (
            <p id="picker-error" className="error-summary" role="alert">
              {p.error}
            </p>
          )}
          {cards.map((a) => {
            const disabled = a.mandatory || (a.account === 'DSK_DK' && dskLocked) || (a.account === 'EPK_NO' && !epkAllowed);
            return (
              <PickerAccount
                key={a.account}
                card={a}
                checked={a.mandatory || (!disabled && ticked.includes(a.account))}
                disabled={disabled}
                onToggle={(on) => onAccount(a.account, on)}
                onReadMore={(e) => openSheet(e, a.account)}
                texts={texts}
                depositGuaranteeUrl={p.depositGuaranteeUrl}
              >
                {a.account === 'DSK_DK' && (
                  <DskExtras campaign={campaign} dskExisting={dskExisting} dskLocked={dskLocked} onDskExisting={onDskExisting} texts={texts} />
                )}
                {a.account === 'ESA_FI' && (
                  <p className="banner banner--warning" id="esa-declined-warning" role="status" hidden={!esaDeclined}>
                    {texts.esaDeclinedWarning}
                  </p>
                )}
              </PickerAccount>
            );
          })}
        </fieldset>
        {confirmed.map((account) => (
          <input key={account} type="hidden" name="confirmed" value={account} />
        ))}
        <button type="submit" className="btn">
          {texts.continue}
        </button>
      </form>
      {/* The sheets live outside the form: a <form method="dialog"> cannot nest in it. */}
      {cards.map((a) => (
        <ReadMoreSheet
          key={a.account}
          card={a}
          setSheet={(el) => {
            sheets.current[a.account] = el;
          }}
          onClose={() => returnFocus.current?.focus()}
          texts={texts}
          depositGuaranteeUrl={p.depositGuaranteeUrl}
        />
      ))}
    </>
  );
}

type Texts = AccountPickerProps['texts'];

/** An account's card: its box, what goes with it (`children`) and its 'Read more'. */
function PickerAccount(props: {
  card: AccountPickerCard;
  checked: boolean;
  disabled: boolean;
  onToggle: (on: boolean) => void;
  onReadMore: (e: MouseEvent<HTMLElement>) => void;
  texts: Texts;
  depositGuaranteeUrl: string;
  children: ReactNode;
}) {
  const { card, texts } = props;
  const id = cardId(card.account);
  return (
    <div className="picker-account">
      <div className={`checkbox-card${props.disabled ? ' checkbox-card--locked' : ''}`}>
        {/* A disabled box is not posted, so a locked account also travels as a hidden field. */}
        {card.mandatory && <input type="hidden" name="accounts" value={card.account} />}
        <input
          type="checkbox"
          id={id}
          name="accounts"
          value={card.account}
          checked={props.checked}
          onChange={(e) => props.onToggle(e.currentTarget.checked)}
          disabled={props.disabled}
          aria-describedby={`${id}-text`}
        />
        <label htmlFor={id}>
          <span className="checkbox-card__title">{card.title}</span>
          {card.popular && <span className="badge">{texts.popular}</span>}
          {card.mandatory && <span className="badge">{texts.mandatory}</span>}
        </label>
        <p id={`${id}-text`} className="checkbox-card__text">
          {card.text}
        </p>
      </div>
      {props.children}
      {/* Without JS the drawer opens in place; with JS the same content opens as a bottom sheet (small screens) or a
          side drawer (wider ones), its ReadMoreSheet. */}
      <details className="read-more">
        <summary className="link-button" onClick={props.onReadMore}>
          {texts.readMore}
          <span className="visually-hidden"> {card.title}</span>
        </summary>
        <ReadMoreContent card={card} headingId={`${id}-drawer-title`} texts={texts} depositGuaranteeUrl={props.depositGuaranteeUrl} />
      </details>
    </div>
  );
}

/** DSK's extras: the info outside the campaign, the campaign's question, and the warning once it is locked off. */
function DskExtras(props: {
  campaign: boolean;
  dskExisting: 'yes' | 'no' | null;
  dskLocked: boolean;
  onDskExisting: (value: 'yes' | 'no') => void;
  texts: Texts;
}) {
  const { texts, dskExisting, dskLocked } = props;
  return (
    <>
      {props.campaign ? (
        <fieldset className={`picker-extra${dskLocked || dskExisting ? ' picker-extra--shown' : ''}`} id="dsk-question">
          <legend>{texts.dskQuestion}</legend>
          {(['yes', 'no'] as const).map((v) => (
            <div key={v} className="radio">
              <input type="radio" id={`dsk-existing-${v}`} name="dskExisting" value={v} checked={dskExisting === v} onChange={() => props.onDskExisting(v)} />
              <label htmlFor={`dsk-existing-${v}`}>{v === 'yes' ? texts.dskYes : texts.dskNo}</label>
            </div>
          ))}
        </fieldset>
      ) : (
        // Shown (by CSS) while DSK is ticked: customer-information §4.2 info outside the campaign.
        <p className="picker-extra banner" id="dsk-info">
          {texts.dskInfo}
        </p>
      )}
      <p className="banner banner--warning" id="dsk-existing-warning" role="status" hidden={!dskLocked}>
        {texts.dskExistingWarning}
      </p>
    </>
  );
}

/** 'Read more' with JavaScript: the drawer's content in a modal sheet. */
function ReadMoreSheet({
  card,
  setSheet,
  onClose,
  texts,
  depositGuaranteeUrl,
}: {
  card: AccountPickerCard;
  setSheet: (el: HTMLDialogElement | null) => void;
  onClose: () => void;
  texts: Texts;
  depositGuaranteeUrl: string;
}) {
  const id = cardId(card.account);
  // A click on the backdrop (outside the sheet's box) closes it, as sheets do.
  const closeOnBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target !== e.currentTarget) return;
    const r = e.currentTarget.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) e.currentTarget.close();
  };
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop; Esc closes the modal natively
    <dialog ref={setSheet} id={`${id}-sheet`} className="sheet" aria-labelledby={`${id}-sheet-title`} onClick={closeOnBackdrop} onClose={onClose}>
      <ReadMoreContent card={card} headingId={`${id}-sheet-title`} texts={texts} depositGuaranteeUrl={depositGuaranteeUrl} />
      <form method="dialog">
        <button type="submit" className="btn btn-secondary">
          {texts.close}
        </button>
      </form>
    </dialog>
  );
}
