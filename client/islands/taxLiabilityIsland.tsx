// The tax liability choice (views/components/TaxLiabilityChoice.tsx).
export { TaxLiabilityChoice as default } from '../../views/components/TaxLiabilityChoice.tsx';
