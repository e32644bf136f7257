// The account alias form (views/components/AccountAliasForm.tsx).
export { AccountAlias as default } from '../../views/components/AccountAliasForm.tsx';
