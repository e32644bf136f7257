// The KYC step's loader (views/components/KycLoader.tsx).
export { KycLoader as default } from '../../views/components/KycLoader.tsx';
