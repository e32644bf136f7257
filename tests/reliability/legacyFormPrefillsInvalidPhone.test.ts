// The legacy form pre-filled an invalid phone number: with FLAG_KYC=false it follows the contact step and built its
// phone field as "+<prefix> <typed>", so a number typed internationally came back as "+46 +46701234567", which its own
// check refused; and milestone three showed the raw E.164 number. Over HTTP: the contact step's number is stored once
// (E.164) and shown formatted (the market's own number nationally, another country's internationally) in the legacy
// form, whose check accepts it, and in the summary.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import en from '../../locales/en.json' with { type: 'json' };

type Agent = ReturnType<typeof request.agent>;

/** The three ways of typing a number internationally, and how the Swedish journey shows each afterwards. */
const typedForms = [
  { typed: '+46701234567', shown: '070-123 45 67' },
  { typed: '0046701234567', shown: '070-123 45 67' },
  { typed: '+358401234567', shown: '+358 40 1234567' },
];

const contactPost = (typed: string) =>
  new URLSearchParams({ step: 'CONTACT_INFORMATION_STEP', screen: 'contact', phonePrefix: '46', phone: typed, email: 'vera@example.se' }).toString();

/** The value attribute of the legacy form's phone input. */
const phoneFieldValue = (html: string) => /<input(?=[^>]*name="phoneNumber")[^>]*value="([^"]*)"/.exec(html)?.[1];

async function atContactStep(stack: Stack, agent: Agent): Promise<string> {
  const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'contactInformation');
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
  return page;
}

describe('The legacy form pre-fills an invalid phone number (FLAG_KYC=false)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startEmbeddedStack({ FLAG_KYC: 'false' });
  });
  afterAll(async () => stack?.stop());

  it.each(typedForms)('a number typed as $typed is pre-filled as $shown, and the legacy form accepts it', async ({ typed, shown }) => {
    const agent = request.agent(stack.webUrl);
    const page = await atContactStep(stack, agent);
    await postStep(agent, page, contactPost(typed)).expect(303);

    const legacy = await agent.get(page).expect(200);
    expect(screenOf(legacy.text)).toEqual(['EXISTING_STEP', 'form']);
    const prefilled = phoneFieldValue(legacy.text);
    expect(prefilled).toBe(shown);

    // Posting the form with the pre-filled number: no phone error on it (the other fields' errors are expected).
    const body = new URLSearchParams({ step: 'EXISTING_STEP', screen: 'form', phoneNumber: prefilled!, email: 'vera@example.se', intent: 'sign' });
    const checked = await agent.post(`${page}/step?shouldUseLegacyFlow=true`).set('sec-fetch-site', 'same-origin').type('form').send(body.toString());
    expect(checked.status).toBe(400);
    expect(checked.text).toContain('href="#legacy-firstName"');
    expect(checked.text).not.toContain('href="#legacy-phoneNumber"');
    expect(checked.text).not.toContain('id="legacy-phoneNumber-error"');
    expect(phoneFieldValue(checked.text)).toBe(shown);
  });
});

describe('The summary shows the phone number raw (milestone three, FLAG_KYC on)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startEmbeddedStack();
  });
  afterAll(async () => stack?.stop());

  it.each(typedForms)('a number typed as $typed shows as $shown in "Check your answers"', async ({ typed, shown }) => {
    const agent = request.agent(stack.webUrl);
    const page = await atContactStep(stack, agent);
    await postStep(agent, page, contactPost(typed)).expect(303);
    const summary = await agent.get(page).expect(200);
    expect(screenOf(summary.text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
    const row = new RegExp(`<dt class="summary-list__key">${en['contactInformation.phone.label']}</dt><dd class="summary-list__value">([^<]*)<`);
    expect(row.exec(summary.text)?.[1]).toBe(shown);
  });
});
