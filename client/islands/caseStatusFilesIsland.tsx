// The files and Send of a case-status task's form (views/components/CaseStatusFiles.tsx).
export { CaseStatusFiles as default } from '../../views/components/CaseStatusFiles.tsx';
