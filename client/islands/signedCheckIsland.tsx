// "I have signed", also posted by itself when the page is visible again (views/components/SignedCheckForm.tsx).
export { SignedCheck as default } from '../../views/components/SignedCheckForm.tsx';
