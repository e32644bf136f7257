// A form post that navigates away, sent once (views/components/SubmitOnceForm.tsx SubmitOnce): Continue on the DK/NO/FI
// identification pages (identification-routing-creation §2 "spinner while loading") and 'Sign agreements' of the
// legacy form (customer-information §4.9 "the button shows loading").
export { SubmitOnce as default } from '../../views/components/SubmitOnceForm.tsx';
