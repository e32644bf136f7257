// The files and Send of a status-page task's form (views/components/CaseFiles.tsx).
export { CaseFiles as default } from '../../views/components/CaseFiles.tsx';
