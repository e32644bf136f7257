// The residency step's dialog screen, which gives way to the address form under the modal (views/components/ResidencyAddress.tsx).
export { ResidencyGate as default } from '../../views/components/ResidencyAddress.tsx';
