// The legacy form's know-your-customer and risk cards, whose sensitive answers open their dialogs (views/components/LegacyKycAnswers.tsx).
export { LegacyKycAnswers as default } from '../../views/components/LegacyKycAnswers.tsx';
