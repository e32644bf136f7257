// The account picker form (views/components/AccountPickerForm.tsx).
export { AccountPicker as default } from '../../views/components/AccountPickerForm.tsx';
