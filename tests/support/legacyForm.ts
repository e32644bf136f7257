// The legacy single form over HTTP (customer-information §2.3, §4.9): identified as a legacy persona, the form
// answered harmlessly and checked, up to its review's Sign.
import type request from 'supertest';
import { expect } from 'vitest';
import { identifyOverHttp, type Persona } from './journey.ts';
import { screenOf } from './customerInformation.ts';

type Agent = ReturnType<typeof request.agent>;

/** The review's Sign post. */
export const LEGACY_SIGN = 'step=EXISTING_STEP&screen=review&intent=sign';

/** A post to the legacy form's step route, as its forms send it (same origin, the legacy query kept). */
export const postLegacy = (agent: Agent, page: string, body: string) =>
  agent.post(`${page}/step?shouldUseLegacyFlow=true`).set('sec-fetch-site', 'same-origin').type('form').send(body);

/** Questionnaire 8 answered harmlessly (sandbox/kyc.ts ids): employed, the lowest bands, long-term saving, salary, not a PEP, own money. */
export const LEGACY_KYC = { 83: 200, 87: 214, 90: 235, 89: 225, 88: 229, 92: 220, 85: 205, 86: 209, 84: 223, 91: 218 } as const;

/**
 * The legacy form answered harmlessly for a (Swedish) persona and posted with "Sign agreements", as its form sends it;
 * `overrides` replace fields, and a null leaves one out.
 */
export function legacyFormBody(persona: Pick<Persona, 'name'>, overrides: Record<string, string | null> = {}): string {
  const fields: Record<string, string | null> = {
    step: 'EXISTING_STEP',
    screen: 'form',
    accounts: 'ISK_SE',
    phoneNumber: '+46 70 123 45 67',
    email: 'prospect@example.se',
    firstName: persona.name.split(' ')[0]!,
    // The surname as the register has it: two words for the legacyDoubleName personas.
    lastName: persona.name.split(' ').slice(1).join(' '),
    citizenship: 'inOfficeCitizenship',
    residency: 'inOffice',
    taxLiability: 'inOffice',
    investmentRisk: 'yes',
    ...Object.fromEntries(Object.entries(LEGACY_KYC).map(([q, a]) => [`kyc-${q}`, String(a)])),
    intent: 'sign',
    ...overrides,
  };
  const params = new URLSearchParams();
  // DEP_SE is locked ticked: the form posts it from a hidden field.
  params.append('accounts', 'DEP_SE');
  for (const [name, value] of Object.entries(fields)) if (value !== null) params.append(name, value);
  return params.toString();
}

/** Identified as the (Swedish) legacy persona, the form answered and accepted: the review is shown. Answers the page. */
export async function atLegacyReviewOverHttp(agent: Agent, sandboxUrl: string, scenario: string): Promise<string> {
  const { page: entry, persona } = await identifyOverHttp(agent, sandboxUrl, scenario);
  const page = entry.split('?')[0]!;
  await postLegacy(agent, page, legacyFormBody(persona)).expect(303);
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['EXISTING_STEP', 'review']);
  return page;
}
