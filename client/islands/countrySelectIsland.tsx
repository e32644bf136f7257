// The country multi-select (views/components/CountrySelect.tsx).
export { CountrySelect as default } from '../../views/components/CountrySelect.tsx';
