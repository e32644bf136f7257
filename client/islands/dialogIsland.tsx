// The modal dialogs of a page (views/components/Dialog.tsx DialogModal).
export { DialogModal as default } from '../../views/components/Dialog.tsx';
