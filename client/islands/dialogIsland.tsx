// The generic dialog (customer-information.md §2.2 abort modal, §2.3 compliance dialogs, §4.2/§5 DSK and
// ESA confirmations). Use it through views/components/Dialog.tsx (`Dialog` for the no-JS screen,
// `ModalDialog` for the modal); this file holds the shared markup and the island that turns the
// server-rendered, closed <dialog> into a modal: showModal (native focus trap and inert page), Esc = the
// secondary action, focus returned to the opener on close.
//
// Talking to the modal from another island:
//   document.dispatchEvent(new CustomEvent('dialog:open', { detail: { id } }))        opens it
//   document.addEventListener('dialog:close', (e) => e.detail /* { id, result } */)    how it was closed
// where result is 'primary' or 'secondary' (Esc and the backdrop-less close count as 'secondary').
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { CsrfField } from '../../views/components/CsrfField.tsx';

/** A link, or a form post with hidden fields (the checkbox, if any, is posted with the primary action). */
export type DialogAction = { label: string; href: string } | { label: string; action: string; fields?: Record<string, string> };

export type DialogResult = 'primary' | 'secondary';

export interface DialogProps {
  /** DOM id of the dialog; the title gets `${id}-title`. Unique on the page. */
  id: string;
  title: string;
  /** Paragraphs of text. */
  text: string[];
  /** A warning shown above the actions (e.g. a server-side validation message). */
  warning?: string;
  /** A disclosure below the text: lists behind a summary (e.g. who counts as a politically exposed person). */
  details?: { summary: string; sections: { title: string; items: string[] }[]; note?: string };
  /** A link below the text, besides the two actions (e.g. a compliance dialog's external manual form). */
  link?: { label: string; href: string };
  /** A box that must be ticked before the primary action is enabled (posted as name=yes). */
  checkbox?: { name: string; label: string };
  primary: DialogAction;
  secondary: DialogAction;
  /**
   * With JavaScript, these actions only close the modal (and report it by 'dialog:close') instead of
   * following their link or post. Default: the secondary action closes, the primary one navigates.
   */
  closes?: DialogResult[];
  /** Ids of elements (e.g. a link to the no-JS screen) whose click opens the modal instead. */
  openers?: string[];
  /** The modal opens as soon as the page runs (e.g. to answer a post the server refused). */
  openOnLoad?: boolean;
}

export const DIALOG_OPEN_EVENT = 'dialog:open';
export const DIALOG_CLOSE_EVENT = 'dialog:close';

/** Asks the modal `id` to open; answers whether it is open now (false while its island has not run yet). */
export function openDialog(id: string): boolean {
  document.dispatchEvent(new CustomEvent(DIALOG_OPEN_EVENT, { detail: { id } }));
  return (document.getElementById(id) as HTMLDialogElement | null)?.open ?? false;
}

/** Calls `onClose` with the result each time the modal `id` closes (for islands that react to a dialog). */
export function useDialogClose(id: string | undefined, onClose: (result: DialogResult) => void): void {
  const latest = useRef(onClose);
  // The listener calls the onClose of the latest render; a close event cannot arrive before this runs.
  useLayoutEffect(() => {
    latest.current = onClose;
  });
  useEffect(() => {
    if (!id) return;
    const listener = (e: Event) => {
      const detail = (e as CustomEvent<{ id?: string; result?: DialogResult }>).detail;
      if (detail?.id === id && detail.result) latest.current(detail.result);
    };
    document.addEventListener(DIALOG_CLOSE_EVENT, listener);
    return () => document.removeEventListener(DIALOG_CLOSE_EVENT, listener);
  }, [id]);
}

interface ContentOptions {
  mode: 'screen' | 'modal';
  ticked?: boolean;
  onTick?: (ticked: boolean) => void;
  onClose?: (result: DialogResult) => void;
}

function ActionControl({
  action,
  kind,
  closes,
  disabled,
  onClose,
  children,
}: {
  action: DialogAction;
  kind: DialogResult;
  closes: boolean;
  disabled: boolean;
  onClose?: (result: DialogResult) => void;
  children?: ReactNode;
}) {
  const className = kind === 'primary' ? 'btn' : 'btn btn-secondary';
  if (closes) {
    return (
      <>
        {children}
        <button type="button" className={className} disabled={disabled} onClick={() => onClose?.(kind)}>
          {action.label}
        </button>
      </>
    );
  }
  if ('href' in action) {
    return (
      <>
        {children}
        {/* A link cannot be disabled: aria-disabled plus no href while the box is unticked. */}
        {/* eslint-disable-next-line jsx-a11y/anchor-is-valid -- the href is left out only while disabled (above) */}
        <a className={className} href={disabled ? undefined : action.href} aria-disabled={disabled || undefined} role={disabled ? 'link' : undefined}>
          {action.label}
        </a>
      </>
    );
  }
  return (
    <form method="post" action={action.action}>
      <CsrfField />
      {Object.entries(action.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <button type="submit" className={className} disabled={disabled}>
        {action.label}
      </button>
    </form>
  );
}

/** The dialog's inside: title, text, optional checkbox, actions. Same markup with and without JS. */
export function DialogContent(props: DialogProps & ContentOptions) {
  const { id, title, text, details, warning, link, checkbox, primary, secondary, mode, ticked = false, onTick, onClose } = props;
  const closes = new Set<DialogResult>(mode === 'modal' ? (props.closes ?? ['secondary']) : []);
  const Heading = mode === 'screen' ? 'h1' : 'h2';
  const boxId = `${id}-checkbox`;
  const box = checkbox && (
    <div className="dialog__checkbox">
      {/* Without JS the browser's own required check (and the server) guard the primary post. */}
      <input
        type="checkbox"
        id={boxId}
        name={checkbox.name}
        value="yes"
        required={mode === 'screen'}
        checked={mode === 'modal' ? ticked : undefined}
        onChange={mode === 'modal' ? (e) => onTick?.(e.currentTarget.checked) : undefined}
      />
      <label htmlFor={boxId}>{checkbox.label}</label>
    </div>
  );
  // The box travels inside the primary form when that form posts; otherwise it stands on its own.
  const boxInPrimaryForm = box && !closes.has('primary') && !('href' in primary);
  return (
    <>
      <Heading id={`${id}-title`} className="dialog__title">
        {title}
      </Heading>
      <div id={`${id}-text`}>
        {text.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {details && (
        <details className="dialog__details">
          <summary>{details.summary}</summary>
          {details.sections.map((section) => (
            <div key={section.title}>
              <p>{section.title}</p>
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </div>
          ))}
          {details.note && <p>{details.note}</p>}
        </details>
      )}
      {link && (
        <p>
          <a href={link.href}>{link.label}</a>
        </p>
      )}
      {warning && (
        <p className="banner banner--warning" role="alert">
          {warning}
        </p>
      )}
      {!boxInPrimaryForm && box}
      <div className="actions dialog__actions">
        <ActionControl action={primary} kind="primary" closes={closes.has('primary')} disabled={mode === 'modal' && !!checkbox && !ticked} onClose={onClose}>
          {boxInPrimaryForm ? box : undefined}
        </ActionControl>
        <ActionControl action={secondary} kind="secondary" closes={closes.has('secondary')} disabled={false} onClose={onClose} />
      </div>
    </>
  );
}

/** The island: a closed native <dialog>, opened by its openers or a 'dialog:open' event. */
export default function DialogModal(props: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [ticked, setTicked] = useState(false);
  const { id, openers, openOnLoad } = props;

  const open = useCallback(() => {
    const el = ref.current;
    if (!el || el.open) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setTicked(false);
    el.showModal();
  }, []);

  const close = useCallback(
    (result: DialogResult) => {
      ref.current?.close();
      returnFocus.current?.focus();
      document.dispatchEvent(new CustomEvent(DIALOG_CLOSE_EVENT, { detail: { id, result } }));
    },
    [id],
  );

  useEffect(() => {
    if (openOnLoad) open();
  }, [openOnLoad, open]);

  useEffect(() => {
    const onOpen = (e: Event) => {
      if ((e as CustomEvent<{ id?: string }>).detail?.id === id) open();
    };
    const onOpenerClick = (e: Event) => {
      e.preventDefault();
      open();
    };
    const openerEls = (openers ?? []).map((o) => document.getElementById(o)).filter((el): el is HTMLElement => el !== null);
    document.addEventListener(DIALOG_OPEN_EVENT, onOpen);
    for (const el of openerEls) el.addEventListener('click', onOpenerClick);
    // Esc fires 'cancel': treat it as the secondary action (so e.g. a cancelled DSK box is unticked).
    const dialog = ref.current;
    const onCancel = (e: Event) => {
      e.preventDefault();
      close('secondary');
    };
    dialog?.addEventListener('cancel', onCancel);
    return () => {
      document.removeEventListener(DIALOG_OPEN_EVENT, onOpen);
      for (const el of openerEls) el.removeEventListener('click', onOpenerClick);
      dialog?.removeEventListener('cancel', onCancel);
    };
  }, [id, openers, open, close]);

  return (
    <dialog ref={ref} id={id} className="dialog dialog--modal" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <DialogContent {...props} mode="modal" ticked={ticked} onTick={setTicked} onClose={close} />
    </dialog>
  );
}
