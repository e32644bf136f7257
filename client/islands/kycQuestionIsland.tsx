// A page of the KYC questionnaire (views/components/KycQuestionForm.tsx).
export { KycQuestionForm as default } from '../../views/components/KycQuestionForm.tsx';
