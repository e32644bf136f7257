// Compliance dialogs (customer-information.md §2.3 "Compliance dialogs"): FATCA, RESIDENCY, CITIZENSHIP and
// PEP offer a link to the external manual form; the link carries an exit parameter holding the type,
// appended after an identified path (the person is already identified when they get there).
export const complianceDialogTypes = ['FATCA', 'RESIDENCY', 'CITIZENSHIP', 'PEP'] as const;
export type ComplianceDialogType = (typeof complianceDialogTypes)[number];

/**
 * The dialogs a sensitive answer opens (customer-information §4.7, §4.10): the four above plus INVESTMENT_RISK, a risk
 * acknowledgement without a manual form. (DSK and ESA are the account picker's own confirmations.)
 */
export const sensitiveAnswerDialogTypes = [...complianceDialogTypes, 'INVESTMENT_RISK'] as const;
export type SensitiveAnswerDialogType = (typeof sensitiveAnswerDialogTypes)[number];

export const offersManualForm = (type: SensitiveAnswerDialogType): type is ComplianceDialogType => (complianceDialogTypes as readonly string[]).includes(type);

/** e.g. https://forms.example.com/additional-information → …/additional-information/identified?exit=FATCA */
export function manualFormUrl(base: string, type: ComplianceDialogType): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/identified`;
  url.searchParams.set('exit', type);
  return url.toString();
}
