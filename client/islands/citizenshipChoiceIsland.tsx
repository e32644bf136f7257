// The citizenship choice (views/components/CitizenshipChoice.tsx).
export { CitizenshipChoice as default } from '../../views/components/CitizenshipChoice.tsx';
