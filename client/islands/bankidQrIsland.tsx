// The Swedish BankID order in progress (views/components/BankidQrStatus.tsx BankidQr).
export { BankidQr as default } from '../../views/components/BankidQrStatus.tsx';
