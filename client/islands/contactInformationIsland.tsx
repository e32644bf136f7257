// The contact information form (views/components/ContactInformationForm.tsx).
export { ContactInformationForm as default } from '../../views/components/ContactInformationForm.tsx';
