// The legacy single form over HTTP (customer-information §2.1, §2.3, §4.9, §4.10, §5, §8): every sandbox persona
// of a saving outcome shows its exact §8 text and keeps what the person typed; an invalid form sends nothing;
// a sensitive answer meets its dialog, whose confirm puts the harmless answer back; check your answers comes
// before signing, with a Change back to the form; the compliant persona signs and reaches customer creation.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, type Persona } from '../support/journey.ts';
import { LEGACY_KYC as KYC, legacyFormBody as formBody, postLegacy as post } from '../support/legacyForm.ts';
import en from '../../locales/en.json' with { type: 'json' };

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

/** HTML-escaped as React renders text. */
const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

async function atLegacyForm(agent: Agent, scenario: string): Promise<{ page: string; persona: Persona }> {
  const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, scenario);
  expect(page).toMatch(/\?shouldUseLegacyFlow=true$/);
  const form = await agent.get(page).expect(200);
  expect(screenOf(form.text)).toEqual(['EXISTING_STEP', 'form']);
  return { page: page.split('?')[0]!, persona };
}

const REVIEW = 'step=EXISTING_STEP&screen=review&intent=sign';

/** customer-information §8: each persona's outcome, its exact text (banner and, where it has one, its field), its status. */
const outcomes = [
  { scenario: 'legacyNonCompliant', status: 422, texts: [en['legacy.banner.nonCompliant.title'], en['legacy.banner.nonCompliant.text']] },
  {
    scenario: 'legacyRegulationWithoutId',
    status: 422,
    texts: [en['legacy.banner.unspecifiedApiResponseError.title'], en['legacy.banner.unspecifiedApiResponseError.text']],
  },
  { scenario: 'legacyMinor', status: 422, texts: [en['legacy.fieldError.notOldEnough']], field: 'legacy-nationalId' },
  {
    scenario: 'legacyPhoneRefused',
    status: 422,
    texts: [en['legacy.banner.mobileNumber.title'], en['legacy.fieldError.mobileNumber']],
    field: 'legacy-phoneNumber',
  },
  { scenario: 'legacyEmailRefused', status: 422, texts: [en['legacy.banner.email.title'], en['legacy.fieldError.email']], field: 'legacy-email' },
  { scenario: 'legacyDoubleName', status: 422, texts: [en['legacy.banner.doubleName.title'], en['legacy.fieldError.doubleName']], field: 'legacy-lastName' },
  {
    scenario: 'legacySeveralErrors',
    status: 422,
    texts: [en['legacy.banner.unspecifiedFormError.title'], en['legacy.banner.unspecifiedFormError.text']],
    field: 'legacy-phoneNumber',
  },
  { scenario: 'legacyHighRisk', status: 403, texts: [en['customerInformation.error.highRisk']] },
] as const;

describe('saving the legacy form: every outcome of customer-information §8', () => {
  it.each(outcomes)('$scenario shows its text and keeps the input', async ({ scenario, status, texts, ...rest }) => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await atLegacyForm(agent, scenario);
    await post(agent, page, formBody(persona)).expect(303).expect('location', page);
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['EXISTING_STEP', 'review']);
    const refused = await post(agent, page, REVIEW).expect(status);
    expect(screenOf(refused.text)).toEqual(['EXISTING_STEP', 'form']);
    for (const text of texts) expect(refused.text).toContain(html(text));
    // The support and manual-signing links travel with the banner.
    expect(refused.text).toContain(html(en['legacy.banner.manualSigning']));
    expect(refused.text).not.toContain(html(en['customerInformation.error.SESSION_EXPIRED_ERROR']));
    if ('field' in rest) expect(refused.text).toMatch(new RegExp(`id="${rest.field}-error"`));
    // What the person typed is kept, on the answer and on the next visit.
    for (const body of [refused.text, (await agent.get(page).expect(200)).text]) {
      expect(body).toContain('value="prospect@example.se"');
      expect(body).toContain(`value="${html(persona.name.split(' ').slice(1).join(' '))}"`);
      expect(body).toContain(`<option value="200" selected="">`);
    }
  });

  it('the compliant persona checks its answers, signs, and reaches customer creation', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await atLegacyForm(agent, 'legacyFlow');
    // An answer to a question the questionnaire does not have is not kept, nor sent.
    await post(agent, page, formBody(persona, { 'kyc-999': '1' })).expect(303);
    const review = await agent.get(page).expect(200);
    expect(review.text).toContain(html(en['legacy.review.title']));
    expect(review.text).toContain('prospect@example.se');
    expect(review.text).toContain(html(en['legacy.kyc.answer.employed']));
    expect(review.text).toContain(html(en['legacy.kyc.answer.pep_no']));
    const signing = (await post(agent, page, REVIEW).expect(303)).headers.location as string;
    expect(signing).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    // Back from the signing page unsigned (its postpone link): the same signing again, without saving twice.
    const readOut = `/sandbox/legacy?prospectId=${page.split('/').pop()}`;
    const saved = (await request(stack.sandboxUrl).get(readOut)).body as { regulations: unknown[]; updates: unknown[]; signatures: unknown[] };
    expect([saved.regulations.length, saved.updates.length, saved.signatures.length]).toEqual([1, 1, 1]);
    // What was sent (customer-information §3): snake_case, trimmed, the phone as one international number.
    expect(saved.regulations[0]).toMatchObject({ customer_type: 'individual', jurisdiction: 'SE', tax_info: { taxable_outside_jurisdiction: false } });
    const sentKyc = (saved.regulations[0] as { kyc: { answers: Array<{ question_id: number; answer_id: number }> } }).kyc.answers;
    expect(sentKyc.map((a) => [a.question_id, a.answer_id]).sort((a, b) => a[0]! - b[0]!)).toEqual(
      Object.entries(KYC)
        .map(([q, a]) => [Number(q), a])
        .sort((a, b) => a[0]! - b[0]!),
    );
    expect(saved.updates[0]).toMatchObject({
      phone_number: '+46701234567',
      email: 'prospect@example.se',
      account_templates: ['DEP_SE', 'ISK_SE'],
      citizen: 'SE',
    });
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['EXISTING_STEP', 'review']);
    expect((await post(agent, page, REVIEW).expect(303)).headers.location).toBe(signing);
    expect((await request(stack.sandboxUrl).get(readOut)).body).toEqual(saved);
    const done = (await request(signing).post('/sign').expect(303)).headers.location as string;
    expect(done).toBe(`${stack.webUrl}${page.replace('/customer-information/', '/customer-creation/')}`);
  });
});

describe('the legacy form before saving', () => {
  it('an invalid form sends nothing: every problem is shown at once, with the banner and the input kept', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await atLegacyForm(agent, 'legacyFlow');
    const readOut = `/sandbox/legacy?prospectId=${page.split('/').pop()}`;
    const before = (await request(stack.sandboxUrl).get(readOut).expect(200)).body as { regulations: unknown[]; updates: unknown[] };
    expect(before).toMatchObject({ regulations: [], updates: [], signatures: [] });
    const refused = await post(agent, page, formBody(persona, { firstName: '', email: 'not-an-email', 'kyc-83': null, investmentRisk: null })).expect(400);
    expect(refused.text).toContain(html(en['legacy.banner.inputsAreInvalid.text']));
    for (const id of ['legacy-firstName', 'legacy-email', 'legacy-kyc-83', 'legacy-investmentRisk']) expect(refused.text).toContain(`href="#${id}"`);
    expect(refused.text).toContain(html(en['legacy.error.required.firstName']));
    expect(refused.text).toContain(html(en['contactInformation.error.email']));
    expect(refused.text).toContain(html(en['legacy.error.unanswered.occupation']));
    expect(refused.text).toContain('value="not-an-email"');
    expect((await request(stack.sandboxUrl).get(readOut).expect(200)).body).toEqual(before);
  });

  it.each([
    { field: 'taxLiability', value: 'usa', screen: 'crsDialog', title: en['taxInformation.fatca.title'], reset: 'value="inOffice"' },
    { field: 'investmentRisk', value: 'no', screen: 'riskDialog', title: en['complianceDialog.INVESTMENT_RISK.title'], reset: 'value="yes"' },
    { field: 'kyc-84', value: '224', screen: 'pepDialog', title: en['complianceDialog.PEP.title'], reset: 'value="223"' },
    // The steps' citizenship and residency dialogs speak of next steps; on the legacy form they point to the manual form.
    {
      field: 'citizenship',
      value: 'otherCitizenships',
      screen: 'citizenshipDialog',
      title: en['legacy.dialog.citizenship.text'],
      reset: 'value="inOfficeCitizenship"',
    },
    { field: 'residency', value: 'other', screen: 'residencyDialog', title: en['legacy.dialog.residency.text'], reset: 'value="inOffice"' },
  ])('$field=$value meets its dialog; confirm puts the harmless answer back (customer-information §4.10)', async ({ field, value, screen, title, reset }) => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await atLegacyForm(agent, 'legacyFlow');
    await post(agent, page, formBody(persona, { [field]: value })).expect(303);
    const dialog = await agent.get(page).expect(200);
    expect(screenOf(dialog.text)).toEqual(['EXISTING_STEP', screen]);
    expect(dialog.text).toContain(html(title));
    await post(agent, page, `step=EXISTING_STEP&screen=${screen}&intent=confirm`).expect(303);
    const form = await agent.get(page).expect(200);
    expect(screenOf(form.text)).toEqual(['EXISTING_STEP', 'form']);
    expect(form.text).toContain(`name="${field}" checked="" ${reset}`);
    // Everything else typed is still there.
    expect(form.text).toContain('value="prospect@example.se"');
  });

  it('check your answers: Change goes back to the form, and signing again returns to the summary with the change', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await atLegacyForm(agent, 'legacyFlow');
    await post(agent, page, formBody(persona)).expect(303);
    await post(agent, page, 'step=EXISTING_STEP&screen=review&intent=change&section=contact').expect(303).expect('location', `${page}#legacy-contact-title`);
    expect(screenOf((await agent.get(page)).text)).toEqual(['EXISTING_STEP', 'form']);
    await post(agent, page, formBody(persona, { email: 'changed@example.se' })).expect(303);
    const review = await agent.get(page).expect(200);
    expect(screenOf(review.text)).toEqual(['EXISTING_STEP', 'review']);
    expect(review.text).toContain('changed@example.se');
  });

  it('?shouldUseLegacyFlow=true selects the legacy form for a prospect of the step flow', async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'accounts');
    expect(screenOf((await agent.get(page)).text)?.[0]).toBe('ACCOUNT_PICKER_STEP');
    const legacy = await agent.get(`${page}?shouldUseLegacyFlow=true`).expect(200);
    expect(screenOf(legacy.text)).toEqual(['EXISTING_STEP', 'form']);
    // A GET changes nothing: without the query the step flow is where it was.
    expect(screenOf((await agent.get(page)).text)?.[0]).toBe('ACCOUNT_PICKER_STEP');
  });
});
