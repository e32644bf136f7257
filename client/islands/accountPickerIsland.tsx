// The account picker form (views/components/AccountPicker.tsx).
export { AccountPicker as default } from '../../views/components/AccountPicker.tsx';
