// The accounts' leftovers of customer-information §4.1, §4.2 and §8 over HTTP: the Danish campaign ticks DSK from the
// start (outside it only the depot), and an alias submit the brokerage refuses keeps the person on the step with the
// names as typed and the spec's message (400: check the names; anything else: try later), sending nothing twice.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { httpAnswerOf, screenOf } from '../support/customerInformation.ts';
import { accountPickerOverHttp, tickedAccounts as ticked, identifyOverHttp, postStep } from '../support/journey.ts';
import { prospectsOf } from '../support/savedApplication.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack();
});
afterAll(async () => stack?.stop());

describe('the DSK default by campaign (customer-information §4.2)', () => {
  it.each([
    ['campaign=ask', ['DEP_DK', 'DSK_DK']],
    ['', ['DEP_DK']],
    ['campaign=levelup', ['DEP_DK']],
  ])('Denmark entered with ?%s: %j ticked', async (entry, expected) => {
    const html = await accountPickerOverHttp(stack, 'DK', entry);
    expect(ticked(html)).toEqual(expected);
    // The campaign's question comes with DSK, answered by the person (nothing chosen for them).
    expect(html.includes('name="dskExisting"')).toBe(entry === 'campaign=ask');
    expect(html).not.toMatch(/name="dskExisting"[^>]*checked/);
  });
});

describe('an alias the brokerage refuses (customer-information §4.1, §8)', () => {
  it('stays on the step with the names as typed and the message of the refusal; a later Continue sends them once', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'accounts');
    const picker = (await agent.get(page).expect(200)).text;
    await postStep(agent, page, httpAnswerOf('ACCOUNT_PICKER_STEP', 'accounts', picker) as string).expect(303);
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['ACCOUNT_ALIAS_STEP', 'alias']);

    const names = 'step=ACCOUNT_ALIAS_STEP&screen=alias&intent=continue&alias_ISK_SE=Mina%20pengar&alias_DEP_SE=Handel';
    const fault = (status: number) =>
      request(stack.sandboxUrl)
        .post('/sandbox/faults')
        .send({ method: 'POST', path: brokeragePaths.accountAliasStep(prospectId), status })
        .expect(204);
    for (const [status, answered, message] of [
      [400, 400, 'Make sure your account names are valid and try again.'],
      [503, 502, 'Please try again at a later time.'],
    ] as const) {
      await fault(status);
      const refused = await postStep(agent, page, names);
      expect(refused.status, String(status)).toBe(answered);
      expect(refused.text).toContain(message);
      expect(refused.text).toContain('value="Mina pengar"');
      // Kept: the page shows the step and the names as typed again.
      const shown = (await agent.get(page).expect(200)).text;
      expect(screenOf(shown)).toEqual(['ACCOUNT_ALIAS_STEP', 'alias']);
      expect(shown).toContain('value="Mina pengar"');
      expect(shown).toContain('value="Handel"');
    }
    expect((await prospectsOf(stack.sandboxUrl, persona.nationalId)).at(-1)!.submits.ACCOUNT_ALIAS_STEP).toBeUndefined();

    await postStep(agent, page, names).expect(303);
    expect(screenOf((await agent.get(page).expect(200)).text)?.[0]).not.toBe('ACCOUNT_ALIAS_STEP');
    expect((await prospectsOf(stack.sandboxUrl, persona.nationalId)).at(-1)!.submits.ACCOUNT_ALIAS_STEP).toEqual([200]);
  });
});
