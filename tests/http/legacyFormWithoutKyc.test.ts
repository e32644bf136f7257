// Without the KYC flag (customer-information §4.1) the milestones and KYC are removed and the legacy single form
// is appended: the person answers the remaining steps, then meets the legacy form holding what they already gave.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp } from '../support/journey.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack({ FLAG_KYC: 'false' });
});
afterAll(async () => stack?.stop());

describe('FLAG_KYC off: the legacy form after the remaining steps', () => {
  it('follows the contact step, shows the contact answers given there, and Back returns to it', async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'contactInformation');
    expect(screenOf((await agent.get(page)).text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    await agent
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('step=CONTACT_INFORMATION_STEP&screen=contact&phonePrefix=46&phone=701234567&email=vera%40example.se')
      .expect(303);
    const legacy = await agent.get(page).expect(200);
    expect(screenOf(legacy.text)).toEqual(['EXISTING_STEP', 'form']);
    expect(legacy.text).toContain('value="vera@example.se"');
    // The number the contact step stored (+46701234567), as the person reads it; the form's check reads it back.
    expect(legacy.text).toContain('value="070-123 45 67"');
    // Back is offered (the previous step is no milestone) and leads to the contact step.
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').type('form').send('').expect(303);
    expect(screenOf((await agent.get(page)).text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
  });
});
