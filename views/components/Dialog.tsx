// The generic dialog (customer-information.md §2.2 abort modal, §2.3 compliance dialogs, §4.2/§5 DSK and ESA
// confirmations), server-rendered. Without JavaScript render <Dialog {...props} /> as a screen of its own; with it,
// <ModalDialog {...props} /> in the page is the dialog island, a closed native <dialog> that opens as a modal when an
// opener is clicked or another island calls openDialog (client/components/dialogEvents.ts). Props and an example:
// docs/islands.md "The dialog".
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { DIALOG_OPEN_EVENT, reportDialogClose, type DialogOpenDetail, type DialogResult } from '../../client/components/dialogEvents.ts';
import { CsrfField } from './CsrfField.tsx';
import { Island } from './Island.tsx';

export type { DialogResult } from '../../client/components/dialogEvents.ts';

/** A link, or a form post with hidden fields (the checkbox, if any, is posted with the primary action). */
export type DialogAction = { label: string; href: string } | { label: string; action: string; fields?: Record<string, string> };

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

/** In the modal: whether the box is ticked, and the close of a control that only closes the modal. */
interface ModalControls {
  ticked: boolean;
  onTick: (ticked: boolean) => void;
  onClose: (result: DialogResult) => void;
}

function ActionControl({
  action,
  kind,
  onClose,
  gated,
  children,
}: {
  action: DialogAction;
  kind: DialogResult;
  /** In the modal, a control that only closes it (a button). */
  onClose?: () => void;
  /** Disabled until the box is ticked (the modal's primary action with a checkbox). */
  gated: boolean;
  children?: ReactNode;
}) {
  const className = kind === 'primary' ? 'btn' : 'btn btn-secondary';
  if (onClose) {
    return (
      <>
        {children}
        <button type="button" className={className} disabled={gated} onClick={onClose}>
          {action.label}
        </button>
      </>
    );
  }
  if ('href' in action) {
    return (
      <>
        {children}
        {/* A link cannot be disabled: aria-disabled and no href while the box is unticked. */}
        {gated ? (
          // eslint-disable-next-line jsx-a11y/anchor-is-valid -- the disabled state of a link: no target until the box is ticked
          <a className={className} aria-disabled="true" role="link">
            {action.label}
          </a>
        ) : (
          <a className={className} href={action.href}>
            {action.label}
          </a>
        )}
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
      <button type="submit" className={className} disabled={gated}>
        {action.label}
      </button>
    </form>
  );
}

function Details({ details }: { details: NonNullable<DialogProps['details']> }) {
  return (
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
  );
}

/** The dialog's inside: title, text, optional checkbox, actions. Same markup as a screen and as a modal. */
export function DialogContent(props: DialogProps & { modal?: ModalControls }) {
  const { id, title, text, details, warning, link, checkbox, primary, secondary, modal } = props;
  const closes = new Set<DialogResult>(modal ? (props.closes ?? ['secondary']) : []);
  const Heading = modal ? 'h2' : 'h1';
  const boxId = `${id}-checkbox`;
  const box = checkbox && (
    <div className="dialog__checkbox">
      {modal ? (
        <input type="checkbox" id={boxId} name={checkbox.name} value="yes" checked={modal.ticked} onChange={(e) => modal.onTick(e.target.checked)} />
      ) : (
        // Without JS the browser's own required check (and the server) guard the primary post.
        <input type="checkbox" id={boxId} name={checkbox.name} value="yes" required />
      )}
      <label htmlFor={boxId}>{checkbox.label}</label>
    </div>
  );
  // The box travels inside the primary form when that form posts; otherwise it stands on its own.
  const boxInPrimaryForm = box && !closes.has('primary') && !('href' in primary);
  const closeWith = (result: DialogResult) => (modal && closes.has(result) ? () => modal.onClose(result) : undefined);
  // The body scrolls in a modal taller than the screen, the actions below it staying in view (.dialog__body).
  return (
    <>
      <div className="dialog__body">
        <Heading id={`${id}-title`} className="dialog__title">
          {title}
        </Heading>
        <div id={`${id}-text`}>
          {text.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
        {details && <Details details={details} />}
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
      </div>
      <div className="actions dialog__actions">
        <ActionControl action={primary} kind="primary" onClose={closeWith('primary')} gated={!!modal && !!checkbox && !modal.ticked}>
          {boxInPrimaryForm ? box : undefined}
        </ActionControl>
        <ActionControl action={secondary} kind="secondary" onClose={closeWith('secondary')} gated={false} />
      </div>
    </>
  );
}

/** The dialog as its own screen: the no-JS fallback, same texts and choices as the modal. */
export function Dialog(props: DialogProps) {
  return (
    <section id={props.id} className="dialog dialog--screen" aria-labelledby={`${props.id}-title`}>
      <DialogContent {...props} />
    </section>
  );
}

/**
 * The modal (the dialog island's component): a closed native <dialog> until an opener is clicked, another island asks
 * for it (openDialog) or `openOnLoad`; how it closes is reported to the other islands (reportDialogClose).
 */
export function DialogModal(props: DialogProps) {
  const { id, openers, openOnLoad } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [ticked, setTicked] = useState(false);

  /** Answers whether the modal is open. */
  const open = useCallback((): boolean => {
    const el = dialog.current;
    if (!el) return false;
    if (el.open) return true;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Each opening asks afresh: the box starts unticked.
    setTicked(false);
    el.showModal();
    return true;
  }, []);
  const close = (result: DialogResult) => {
    dialog.current?.close();
    returnFocus.current?.focus();
    reportDialogClose({ id, result });
  };

  useEffect(() => {
    const onOpen = (e: Event) => {
      const detail = (e as CustomEvent<DialogOpenDetail | null>).detail;
      if (detail?.id === id) detail.opened = open();
    };
    // An opener is a link elsewhere on the page (to the dialog's own screen without JS): its click opens the modal.
    const onClick = (e: MouseEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (target && openers?.some((opener) => target.closest(`#${CSS.escape(opener)}`))) {
        e.preventDefault();
        open();
      }
    };
    document.addEventListener(DIALOG_OPEN_EVENT, onOpen);
    document.addEventListener('click', onClick);
    if (openOnLoad) open();
    return () => {
      document.removeEventListener(DIALOG_OPEN_EVENT, onOpen);
      document.removeEventListener('click', onClick);
    };
  }, [id, openers, openOnLoad, open]);

  return (
    <dialog
      ref={dialog}
      id={id}
      className="dialog dialog--modal"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      // Esc fires 'cancel': it counts as the secondary action (so e.g. a cancelled DSK box is unticked).
      onCancel={(e) => {
        e.preventDefault();
        close('secondary');
      }}
    >
      <DialogContent {...props} modal={{ ticked, onTick: setTicked, onClose: close }} />
    </dialog>
  );
}

/** The dialog as a modal in a page: the dialog island (hydrated by client/islands/dialogIsland.tsx). */
export function ModalDialog(props: DialogProps) {
  return <Island name="dialog" component={DialogModal} props={props} />;
}
