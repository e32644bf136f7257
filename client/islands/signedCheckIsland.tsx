// "I have signed", also posted by itself when the page is visible again (views/components/SignedCheck.tsx).
export { SignedCheckForm as default } from '../../views/components/SignedCheck.tsx';
