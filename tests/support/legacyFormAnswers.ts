// A valid Swedish legacy single form (shared/legacyProspect.ts LegacyFormAnswers) and the PEP question's ids, for the
// table-driven tests of the form's rules and payloads (tests/unit/legacyFormProblems.test.ts, legacyProspectPayloads.test.ts).
import type { LegacyFormAnswers } from '../../shared/legacyProspect.ts';

export const PEP = 84;
export const PEP_YES = 224;
export const PEP_NO = 223;

/** A valid Swedish form: no problems. */
export function form(over: Partial<LegacyFormAnswers> = {}): LegacyFormAnswers {
  return {
    accounts: ['ISK_SE', 'DEP_SE'],
    confirmed: [],
    campaign: false,
    aliases: {},
    phoneNumber: '+46701234567',
    email: 'anna@example.com',
    firstName: 'Anna',
    lastName: 'Berg',
    citizenship: 'inOfficeCitizenship',
    residency: 'inOffice',
    taxLiability: 'inOffice',
    kyc: { 83: [201], 87: [211, 213], [PEP]: [PEP_NO] },
    investmentRisk: 'yes',
    ...over,
  };
}
