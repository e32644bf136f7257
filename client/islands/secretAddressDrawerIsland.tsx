// The MitID page's secret-address banner with its drawer (views/components/SecretAddressDrawer.tsx).
export { SecretAddressBanner as default } from '../../views/components/SecretAddressDrawer.tsx';
