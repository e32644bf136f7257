// The generic dialog (customer-information.md §2.2 abort modal, §2.3 compliance dialogs, §4.2/§5 DSK and
// ESA confirmations), server-rendered. Usage:
//
//   import { Dialog, ModalDialog } from '../components/Dialog.tsx';
//   const props: DialogProps = {
//     id: 'citizenship-dialog', title: t('…title'), text: [t('…text')],
//     checkbox: { name: 'confirm', label: t('…confirm') },          // optional: must be ticked first
//     primary: { label: t('…continue'), action: ctx.action, fields: { step: 'CITIZENSHIP_STEP', … } },
//     secondary: { label: t('…cancel'), href: `${ctx.basePath}` },   // or { action, fields } to post
//     openers: ['some-link-id'],   // optional: clicking these opens the modal instead of navigating
//     closes: ['secondary'],       // default: with JS the secondary action only closes the modal
//     link: { label: t('…form'), href: formUrl },   // optional: a third way out, as a link
//     openOnLoad: true,            // optional: the modal opens as soon as the page runs
//   };
//   Without JS: render <Dialog {...props} /> as a screen of its own (a dialog screen of the page machine).
//   With JS:    render <ModalDialog {...props} /> in the page: a closed native <dialog> that stays hidden until
//               an opener is clicked or another island calls openDialog (client/components/dialogEvents.ts,
//               which also reports how it closed). client/islands/dialogIsland.ts, a small script without
//               React, makes it a modal; the markup here carries what it needs (data-dialog-*).
// The checkbox is posted (name=yes) with a posting primary action; validate it on the server too.
import type { ReactNode } from 'react';
import { DIALOG_GATED_ATTRIBUTE, DIALOG_RESULT_ATTRIBUTE, type DialogResult } from '../../client/components/dialogEvents.ts';
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

/** What the dialog script needs of the modal's props (the rest is in its markup). */
export type DialogScriptProps = Pick<DialogProps, 'id' | 'openers' | 'openOnLoad'>;

function ActionControl({
  action,
  kind,
  closes,
  gated,
  children,
}: {
  action: DialogAction;
  kind: DialogResult;
  /** With JavaScript the control only closes the modal (a button the script listens to). */
  closes: boolean;
  /** Disabled until the box is ticked (the modal's primary action with a checkbox; the script enables it). */
  gated: boolean;
  children?: ReactNode;
}) {
  const className = kind === 'primary' ? 'btn' : 'btn btn-secondary';
  const marks = gated ? { [DIALOG_GATED_ATTRIBUTE]: '' } : {};
  if (closes) {
    return (
      <>
        {children}
        <button type="button" className={className} disabled={gated} {...marks} {...{ [DIALOG_RESULT_ATTRIBUTE]: kind }}>
          {action.label}
        </button>
      </>
    );
  }
  if ('href' in action) {
    return (
      <>
        {children}
        {/* A link cannot be disabled: aria-disabled plus no href while the box is unticked (data-href keeps it). */}
        {gated ? (
          <a className={className} aria-disabled="true" role="link" data-href={action.href} {...marks}>
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
      <button type="submit" className={className} disabled={gated} {...marks}>
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

/** The dialog's inside: title, text, optional checkbox, actions. Same markup with and without JS. */
export function DialogContent(props: DialogProps & { mode: 'screen' | 'modal' }) {
  const { id, title, text, details, warning, link, checkbox, primary, secondary, mode } = props;
  const closes = new Set<DialogResult>(mode === 'modal' ? (props.closes ?? ['secondary']) : []);
  const Heading = mode === 'screen' ? 'h1' : 'h2';
  const boxId = `${id}-checkbox`;
  const box = checkbox && (
    <div className="dialog__checkbox">
      {/* Without JS the browser's own required check (and the server) guard the primary post. */}
      <input type="checkbox" id={boxId} name={checkbox.name} value="yes" required={mode === 'screen'} />
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
      <div className="actions dialog__actions">
        <ActionControl action={primary} kind="primary" closes={closes.has('primary')} gated={mode === 'modal' && !!checkbox}>
          {boxInPrimaryForm ? box : undefined}
        </ActionControl>
        <ActionControl action={secondary} kind="secondary" closes={closes.has('secondary')} gated={false} />
      </div>
    </>
  );
}

/** The dialog as its own screen: the no-JS fallback, same texts and choices as the modal. */
export function Dialog(props: DialogProps) {
  return (
    <section id={props.id} className="dialog dialog--screen" aria-labelledby={`${props.id}-title`}>
      <DialogContent {...props} mode="screen" />
    </section>
  );
}

/** The modal's markup: a closed native <dialog>, shown only by the dialog script. */
function DialogModalMarkup(props: DialogProps) {
  const { id } = props;
  return (
    <dialog id={id} className="dialog dialog--modal" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <DialogContent {...props} mode="modal" />
    </dialog>
  );
}

/** The dialog as a modal: the closed <dialog>, marked for the dialog script (client/islands/dialogIsland.ts). */
export function ModalDialog(props: DialogProps) {
  const scriptProps: DialogScriptProps = { id: props.id, openers: props.openers, openOnLoad: props.openOnLoad };
  return (
    <Island name="dialog" props={scriptProps}>
      <DialogModalMarkup {...props} />
    </Island>
  );
}
