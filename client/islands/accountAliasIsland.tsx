// The account alias form (views/components/AccountAlias.tsx).
export { AccountAlias as default } from '../../views/components/AccountAlias.tsx';
