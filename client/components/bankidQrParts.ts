// Class names of the BankID order's markup (views/components/BankidQrStatus.tsx renders it on the server,
// client/islands/bankidQrIsland.ts finds and rebuilds its parts): one list for both, in a module without React.
export const bankidQrParts = { root: 'bankid-qr', qr: 'qr', launch: 'bankid-qr__launch', status: 'bankid-qr__status', retry: 'bankid-qr__retry' };
