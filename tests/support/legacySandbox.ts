// The sandbox's legacy single-form calls (sandbox/legacy.ts; customer-information §4.9, §7) as their tests drive them
// (tests/http/legacySandboxCalls.test.ts, legacyClientPersonas.test.ts): the markets, a persona with its names, the
// bodies the web's legacy form sends, and the read-out GET /sandbox/legacy.
import request from 'supertest';
import { findPersona, type Persona } from '../../sandbox/personas.ts';
import type { AccountTypeWithCountry, CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { LegacySignatureRequest, ProspectUpdateRequest, RegulationRequest } from '../../shared/contracts/legacyContract.ts';
import { personaFor as publicPersonaFor, type Target } from './sandboxApi.ts';

export const MARKETS: readonly CountryCode[] = ['SE', 'NO', 'DK', 'FI'];

/** The accounts each market offers in the legacy form by default (customer-information §4.2). */
export const ACCOUNTS: Record<CountryCode, AccountTypeWithCountry[]> = {
  SE: ['DEP_SE', 'ISK_SE'],
  NO: ['ASK_NO'],
  DK: ['DEP_DK'],
  FI: ['DEP_FI'],
};
const PHONES: Record<CountryCode, string> = { SE: '+46701234567', NO: '+4791234567', DK: '+4520123456', FI: '+358401234567' };

/** The sandbox's own persona of the scenario in the market (sandbox/personas.ts): its names, as the legacy form sends them. */
export async function personaFor(app: Target, scenario: string, country: CountryCode = 'SE'): Promise<Persona> {
  const persona = findPersona((await publicPersonaFor(app, scenario, country)).nationalId);
  if (!persona) throw new Error(`no ${country} persona for ${scenario}`);
  return persona;
}

export interface LegacyProspect {
  persona: Persona;
  jwt: string;
  prospectId: string;
}

/** The national id as the legacy form sends it: digits only, except in Finland (customer-information §3). */
const nationalIdOf = (persona: Persona) => (persona.country === 'FI' ? persona.nationalId : persona.nationalId.replace(/\D/g, ''));

export function regulationOf(persona: Persona, overrides: Partial<RegulationRequest> = {}): RegulationRequest {
  return {
    regulation_id: null,
    national_id_number_country_code: persona.country,
    national_id_number: nationalIdOf(persona),
    address_country: persona.country,
    jurisdiction: persona.country,
    customer_type: 'individual',
    kyc: {
      answers: [
        { question_id: 83, answer_id: 200 },
        { question_id: 84, answer_id: 223 },
        { question_id: 86, answer_id: 209 },
      ],
    },
    tax_info: { account_type_codes: ACCOUNTS[persona.country].map((a) => a.slice(0, -3)), taxable_in_jurisdiction: true, taxable_outside_jurisdiction: false },
    ...overrides,
  };
}

export function updateOf(persona: Persona, regulationId: string | undefined, overrides: Partial<ProspectUpdateRequest> = {}): ProspectUpdateRequest {
  const accounts = ACCOUNTS[persona.country];
  return {
    national_id_number: nationalIdOf(persona),
    national_id_number_country_code: persona.country,
    country: persona.country,
    phone_number: PHONES[persona.country],
    email: 'prospect@example.com',
    citizen: persona.country,
    ...(regulationId ? { regulation_id: regulationId } : {}),
    account_templates: accounts,
    first_name: persona.givenName,
    last_name: persona.surname,
    account_aliases: accounts.map((a) => ({ account_type: a.slice(0, -3), alias: `My ${a.slice(0, -3)}` })),
    ...overrides,
  };
}

export const signatureOf = (lang = 'sv'): LegacySignatureRequest => ({
  cancel_url: 'http://web.test/onboarding/customer-information/p?shouldUseLegacyFlow=true',
  complete_url: 'http://web.test/onboarding/customer-creation/p',
  postpone_url: 'http://web.test/onboarding',
  lang,
  nextUrl: 'http://web.test/onboarding/customer-creation/p',
  queryParams: { clientId: 'campaign-1', webview: 'false' },
  epk: false,
});

/** The step flow's signature request (identification-routing-creation, customer-information §3). */
export const stepFlowSignature = {
  cancel_url: 'http://web.test/onboarding/cancel',
  complete_url: 'http://web.test/onboarding/creation/p',
  postpone_url: 'http://web.test/onboarding',
  lang: 'en',
};

export interface LegacyReadOut {
  regulations: RegulationRequest[];
  updates: ProspectUpdateRequest[];
  signatures: LegacySignatureRequest[];
}
export const readOut = async (app: Target, prospectId: string) =>
  (await request(app).get('/sandbox/legacy').query({ prospectId }).expect(200)).body as LegacyReadOut;
