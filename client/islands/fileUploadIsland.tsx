// The upload form (views/components/FileUploadForm.tsx).
export { FileUploadForm as default } from '../../views/components/FileUploadForm.tsx';
