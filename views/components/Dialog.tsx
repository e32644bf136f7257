// Generic dialog (server-rendered). Usage:
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
//   With JS:    render <ModalDialog {...props} /> in the page; it stays hidden until an opener is
//               clicked or another island dispatches 'dialog:open' (see client/islands/dialogIsland.tsx,
//               which also reports 'dialog:close' with { id, result: 'primary' | 'secondary' }).
// The checkbox is posted (name=yes) with a posting primary action; validate it on the server too.
import { Island } from './Island.tsx';
import DialogModal, { DialogContent, type DialogProps } from '../../client/islands/dialogIsland.tsx';

export type { DialogAction, DialogProps, DialogResult } from '../../client/islands/dialogIsland.tsx';

/** The dialog as its own screen: the no-JS fallback, same texts and choices as the modal. */
export function Dialog(props: DialogProps) {
  return (
    <section id={props.id} className="dialog dialog--screen" aria-labelledby={`${props.id}-title`}>
      <DialogContent {...props} mode="screen" />
    </section>
  );
}

/** The dialog as a modal: a closed native <dialog> enhanced by the dialog island. */
export function ModalDialog(props: DialogProps) {
  return <Island name="dialog" component={DialogModal} props={props} />;
}
