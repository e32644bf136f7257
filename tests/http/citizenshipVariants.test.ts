// The two shapes of submit-citizenship (customer-information §6 citizenship deviations flag, §7 "older variant:
// citizenOutsideOfTld"): the sandbox takes each only at its own path and refuses a body of the other; with the flag off
// the page asks only the choice (the CITIZENSHIP dialog for another citizenship) and sends the older variant, never v3.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { olderCitizenshipPath } from '../../shared/contracts/citizenshipContract.ts';
import { stepRelatedDataResponse } from '../../shared/contracts/savedApplicationContract.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { httpAnswerOf, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import { bearer, loginWithBankid, newApp } from '../support/sandboxApi.ts';
import { routeToProspect } from '../support/savedApplication.ts';

describe('the sandbox: each shape at its own path, strictly', () => {
  it('refuses the other variant’s fields, a missing answer and another person’s prospect; saves the older answer as complete', async () => {
    const app = newApp();
    const { jwt } = await loginWithBankid(app, 'onboarding');
    const { prospect_id: prospectId } = await routeToProspect(app, jwt);
    const post = (path: string, body: object) => request(app).post(path).set(bearer(jwt)).send(body);

    const mixedV3 = await post(brokeragePaths.submitCitizenshipV3, {
      prospectId,
      isCitizenInTld: true,
      citizenshipInformationList: [],
      citizenOutsideOfTld: false,
    });
    expect(mixedV3.status).toBe(400);
    expect(JSON.stringify(mixedV3.body)).toContain('citizenOutsideOfTld');
    const v3AtOlder = await post(olderCitizenshipPath, { prospectId, isCitizenInTld: true, citizenshipInformationList: [] });
    expect(v3AtOlder.status).toBe(400);
    expect(JSON.stringify(v3AtOlder.body)).toContain('isCitizenInTld');
    await post(olderCitizenshipPath, { prospectId }).expect(400);
    await post(olderCitizenshipPath, { prospectId, citizenOutsideOfTld: 'yes' }).expect(400);
    const other = await loginWithBankid(app, 'accounts');
    await request(app).post(olderCitizenshipPath).set(bearer(other.jwt)).send({ prospectId, citizenOutsideOfTld: true }).expect(403);

    await post(olderCitizenshipPath, { prospectId, citizenOutsideOfTld: true }).expect(200, { data: { saved: true } });
    const related = await request(app).get(brokeragePaths.stepRelatedData(prospectId, 'CITIZENSHIP_STEP')).set(bearer(jwt)).expect(200);
    expect(stepRelatedDataResponse('CITIZENSHIP_STEP').parse(related.body).data.stepRelatedData).toEqual({
      isCitizenInTld: false,
      citizenOutsideOfTld: true,
      citizenshipInformationList: [],
    });
  });
});

describe('the page with FLAG_CITIZENSHIP_DEVIATIONS off', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startEmbeddedStack({ FLAG_CITIZENSHIP_DEVIATIONS: 'false' });
  });
  afterAll(async () => stack?.stop());

  it.each([
    ['another citizenship: the dialog, then done', ['choice=otherCitizenships', 'confirmed=yes'], true],
    ['only the market: done at once', ['choice=inOfficeCitizenship'], false],
  ])('%s, sent in the older variant only', async (_name, choice, outside) => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    for (let i = 0; i < 12; i++) {
      const html = (await agent.get(page).expect(200)).text;
      const [step, screen] = screenOf(html)!;
      if (step === 'CITIZENSHIP_STEP') break;
      await postStep(agent, page, httpAnswerOf(step as 'CONTACT_INFORMATION_STEP', screen, html) as string).expect(303);
    }
    const citizenshipCalls = async () => {
      const { calls } = (await request(stack.sandboxUrl).get('/sandbox/brokerage-calls').expect(200)).body as { calls: { path: string }[] };
      return {
        older: calls.filter((c) => c.path === olderCitizenshipPath).length,
        v3: calls.filter((c) => c.path === brokeragePaths.submitCitizenshipV3).length,
      };
    };
    const before = await citizenshipCalls();
    await postStep(agent, page, ['step=CITIZENSHIP_STEP&screen=choice&intent=choose', ...choice].join('&')).expect(303);
    expect(screenOf((await agent.get(page).expect(200)).text)?.[0]).toBe('TAX_INFO_STEP');
    // The countries screen does not exist without deviations: a post for it goes back to the page, sending nothing.
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=NO').expect(303);
    expect(await citizenshipCalls()).toEqual({ older: before.older + 1, v3: before.v3 });

    const { jwt } = await loginWithBankid(stack.sandboxUrl, 'onboarding');
    const related = await request(stack.sandboxUrl).get(brokeragePaths.stepRelatedData(prospectId, 'CITIZENSHIP_STEP')).set(bearer(jwt)).expect(200);
    expect(stepRelatedDataResponse('CITIZENSHIP_STEP').parse(related.body).data.stepRelatedData.citizenOutsideOfTld).toBe(outside);
  });
});
