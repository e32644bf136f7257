// Business and minor account type lists per market (identification-routing-creation §2 "Business account type list" and "Minor
// account type list"). Corporate and minor applicants leave the app: each card links to an external
// form, except the Swedish occupational pension, which goes to an information page.
import type { CountryCode } from './contracts/brokerageContract.ts';

export type ExternalApplicantType = 'corporate' | 'minor';

/**
 * DEP stock and fund account, KF endowment insurance, SAVINGS savings account, OCCUPATIONAL_PENSION
 * occupational pension, ISK investment savings account, OST investment savings (FI), SIP investment
 * insurance (FI), ASK equity savings account (NO).
 */
export type ExternalAccountType = 'DEP' | 'KF' | 'SAVINGS' | 'OCCUPATIONAL_PENSION' | 'ISK' | 'OST' | 'SIP' | 'ASK';

export interface ExternalAccountCard {
  type: ExternalAccountType;
  destination: 'form' | 'infoPage';
  /** FI SIP for a minor: the guardian first goes through a suitability assessment. */
  prerequisite?: 'guardianSuitabilityAssessment';
}

const form = (type: ExternalAccountType): ExternalAccountCard => ({ type, destination: 'form' });

const lists: Record<ExternalApplicantType, Record<CountryCode, readonly ExternalAccountCard[]>> = {
  corporate: {
    DK: [form('DEP')],
    SE: [form('DEP'), form('KF'), form('SAVINGS'), { type: 'OCCUPATIONAL_PENSION', destination: 'infoPage' }],
    FI: [form('DEP')],
    NO: [form('DEP'), form('SAVINGS')],
  },
  minor: {
    DK: [form('DEP')],
    SE: [form('DEP'), form('ISK'), form('KF')],
    FI: [form('DEP'), form('OST'), { type: 'SIP', destination: 'form', prerequisite: 'guardianSuitabilityAssessment' }],
    NO: [form('DEP'), form('ASK')],
  },
};

export function accountTypeList(applicant: ExternalApplicantType, country: CountryCode): readonly ExternalAccountCard[] {
  return lists[applicant][country];
}

/**
 * Address of a card's external form: the configured base address of the applicant type plus
 * /<country>/<account>, e.g. https://forms.example.com/business/se/kf. The info page is configured on its own.
 */
export function externalFormUrl(baseUrl: string, country: CountryCode, type: ExternalAccountType): string {
  return `${baseUrl.replace(/\/+$/, '')}/${country.toLowerCase()}/${type.toLowerCase().replace(/_/g, '-')}`;
}
