import { describe, expect, it } from 'vitest';
import { accountTypeList, externalFormUrl } from '../../shared/accountTypeLists.ts';

describe('accountTypeList (identification-routing-creation §2)', () => {
  it.each([
    ['corporate', 'DK', ['DEP']],
    ['corporate', 'SE', ['DEP', 'KF', 'SAVINGS', 'OCCUPATIONAL_PENSION']],
    ['corporate', 'FI', ['DEP']],
    ['corporate', 'NO', ['DEP', 'SAVINGS']],
    ['minor', 'DK', ['DEP']],
    ['minor', 'SE', ['DEP', 'ISK', 'KF']],
    ['minor', 'FI', ['DEP', 'OST', 'SIP']],
    ['minor', 'NO', ['DEP', 'ASK']],
  ] as const)('%s in %s: %j', (applicant, country, types) => {
    expect(accountTypeList(applicant, country).map((c) => c.type)).toEqual(types);
  });

  it.each([
    ['corporate', 'SE', 'OCCUPATIONAL_PENSION', 'infoPage', undefined],
    ['corporate', 'SE', 'KF', 'form', undefined],
    ['minor', 'FI', 'SIP', 'form', 'guardianSuitabilityAssessment'],
    ['minor', 'FI', 'OST', 'form', undefined],
    ['minor', 'NO', 'ASK', 'form', undefined],
  ] as const)('%s %s %s goes to %s (prerequisite %s)', (applicant, country, type, destination, prerequisite) => {
    const card = accountTypeList(applicant, country).find((c) => c.type === type)!;
    expect(card.destination).toBe(destination);
    expect(card.prerequisite).toBe(prerequisite);
  });

  it('sends every minor card to a form', () => {
    for (const country of ['SE', 'NO', 'DK', 'FI'] as const) {
      expect(accountTypeList('minor', country).every((c) => c.destination === 'form')).toBe(true);
    }
  });
});

describe('externalFormUrl', () => {
  it.each([
    ['https://forms.example.com/business', 'SE', 'KF', 'https://forms.example.com/business/se/kf'],
    ['https://forms.example.com/business/', 'NO', 'SAVINGS', 'https://forms.example.com/business/no/savings'],
    ['https://forms.example.com/minor', 'FI', 'SIP', 'https://forms.example.com/minor/fi/sip'],
    ['https://forms.example.com/x', 'SE', 'OCCUPATIONAL_PENSION', 'https://forms.example.com/x/se/occupational-pension'],
  ] as const)('%s + %s %s → %s', (base, country, type, url) => {
    expect(externalFormUrl(base, country, type)).toBe(url);
  });
});
