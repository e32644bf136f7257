// The page machine over HTTP (customer-information §2.3; server/stages/customerInformation/steps.tsx):
// the stale-post rule is the same on every screen of every step, and Back walks the visited screens of
// a step before it leaves the step.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { httpAnswerOf, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { stepModules } from '../../server/stages/customerInformation/stepRegistry.ts';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';

type Agent = ReturnType<typeof request.agent>;
let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ FILE_RETRY_DELAY_MS: '5' });
});
afterAll(async () => stack?.stop());

const post = (agent: Agent, path: string, body: string) => agent.post(path).set('sec-fetch-site', 'same-origin').type('form').send(body);

async function answer(agent: Agent, page: string, step: StepId, screen: string, html: string): Promise<void> {
  const body = httpAnswerOf(step, screen, html);
  if (typeof body === 'string') {
    await post(agent, `${page}/step`, body).expect(303);
    return;
  }
  const { fields, file } = body;
  let req = agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin');
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  await req.attach('file', file.bytes, { filename: file.name, contentType: file.contentType }).expect(303);
}

describe('the stale-post rule', () => {
  it('refuses, on every screen of every step, a post for any other screen or step: back to the page, nothing changed', async () => {
    const agent = request.agent(stack.webUrl);
    // The residency persona lives abroad: every step of the default journey, residency included.
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'residency');
    const seen: string[] = [];
    let refused = 0;
    for (let n = 0; n < 60; n++) {
      const html = (await agent.get(page).expect(200)).text;
      const [step, shown] = screenOf(html) as [StepId, string];
      seen.push(`${step} ${shown}`);
      if (step === 'MILESTONE_THREE_STEP') break;
      const module = stepModules.get(step)!;
      const others = Object.entries(module.screens)
        .filter(([name, s]) => name !== shown && !s.dialogOver?.includes(shown))
        .map(([name]) => `step=${step}&screen=${name}`);
      const otherSteps = [...stepModules.values()].filter((m) => m.id !== step).map((m) => `step=${m.id}&screen=${m.first}`);
      for (const stale of [...others, ...otherSteps, `step=${step}`, `step=${step}&screen=nope`, `step=${step}&screen=__proto__`, `screen=${shown}`]) {
        const res = await post(agent, `${page}/step`, `${stale}&intent=finish`);
        expect(res.status, stale).toBe(303);
        expect(res.headers.location, stale).toBe(page);
        expect(screenOf((await agent.get(page).expect(200)).text), `${stale} on ${step} ${shown}`).toEqual([step, shown]);
        refused++;
      }
      await answer(agent, page, step, shown, html);
    }
    expect(seen.at(-1)).toBe('MILESTONE_THREE_STEP milestone');
    // Every screen of the residency and tax steps the walk passes was tried.
    expect(seen).toEqual(
      expect.arrayContaining([
        'RESIDENCY_STEP dialog',
        'RESIDENCY_STEP address',
        'RESIDENCY_STEP questions',
        'RESIDENCY_STEP documents',
        'TAX_INFO_STEP liability',
      ]),
    );
    expect(refused).toBeGreaterThan(100);
  });
});

describe('Back', () => {
  it('returns over the visited screens of the step, a dialog never among them, then to the previous step', async () => {
    const agent = request.agent(stack.webUrl);
    // The residency persona: residency comes right before tax information.
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'residency');
    const shown = async () => screenOf((await agent.get(page).expect(200)).text);
    // Answer the steps before tax information as the walks do.
    for (let n = 0; n < 30; n++) {
      const html = (await agent.get(page).expect(200)).text;
      const [step, screen] = screenOf(html) as [StepId, string];
      if (step === 'TAX_INFO_STEP') break;
      await answer(agent, page, step, screen, html);
    }
    expect(await shown()).toEqual(['TAX_INFO_STEP', 'liability']);
    const stepPost = (body: string) => post(agent, `${page}/step`, `step=TAX_INFO_STEP&${body}`).expect(303);
    await stepPost('screen=liability&liability=other');
    expect(await shown()).toEqual(['TAX_INFO_STEP', 'countries']);
    // The US opens the FATCA dialog (its own screen without JavaScript); Back closes it.
    await stepPost('screen=countries&countries=US&intent=continue');
    expect(await shown()).toEqual(['TAX_INFO_STEP', 'fatca']);
    await post(agent, `${page}/back`, '').expect(303);
    expect(await shown()).toEqual(['TAX_INFO_STEP', 'countries']);
    await stepPost('screen=countries&countries=NO&intent=continue');
    expect(await shown()).toEqual(['TAX_INFO_STEP', 'numbers']);
    const backs: (string[] | undefined)[] = [];
    for (let n = 0; n < 3; n++) {
      await post(agent, `${page}/back`, '').expect(303);
      backs.push(await shown());
    }
    expect(backs.slice(0, 2)).toEqual([
      ['TAX_INFO_STEP', 'countries'],
      ['TAX_INFO_STEP', 'liability'],
    ]);
    // Past the step's first screen: the previous step, on its first screen.
    expect(backs[2]).toEqual(['RESIDENCY_STEP', stepModules.get('RESIDENCY_STEP')!.first]);
  });
});
