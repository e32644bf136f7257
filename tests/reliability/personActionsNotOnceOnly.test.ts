// "I have signed" and "Try again" were not once-only: ten parallel "I have signed" sent ten POST /api/2/customers, ten
// parallel "Try again" started two runs. Each person action that costs or changes something upstream ("I have signed",
// "Try again", "Sign agreements", "Sign with BankID") must reach the brokerage once, however often and from however many
// tabs: ten parallel posts from one session, in memory mode and in Redis mode across two web processes. Try again posts
// the run it retries; a post for a run no longer current (a second tab) starts nothing.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, startRedisStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import { legacyFormBody } from '../support/legacyForm.ts';

type Agent = ReturnType<typeof request.agent>;

const POSTS = 10;
const SIGN = 'step=MILESTONE_THREE_STEP&screen=milestone';

/** The session cookie as a Cookie header (it is sent to both web processes), once the page answers. */
async function cookieOf(agent: Agent, page: string): Promise<string> {
  await agent.get(page).expect(200);
  const value = agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;
  expect(value).toBeDefined();
  return `onb.sid=${value}`;
}

const creationPageOf = (page: string) => page.replace('/customer-information/', '/customer-creation/');

/** HTML-unescaped attribute value, as a browser reads it. */
const unescape = (s: string) => s.replace(/&amp;/g, '&');

/** The form action of the creation page's Try again button. */
function tryAgainUrl(html: string): string {
  const action = /<form class="actions" action="([^"]+)" method="post">/.exec(html)?.[1];
  expect(action, 'a Try again button').toBeDefined();
  return unescape(action!);
}

describe.each([
  ['memory mode', startEmbeddedStack, false],
  ['Redis mode, two web processes', startRedisStack, true],
] as const)('"I have signed" and "Try again" are not once-only (%s)', (_name, startStack, twoWebs) => {
  let stack: Stack;
  let webUrls: string[];

  beforeAll(async () => {
    stack = await startStack();
    webUrls = twoWebs ? [stack.webUrl, await stack.startExtraWeb()] : [stack.webUrl];
  });

  afterAll(async () => {
    if (twoWebs) await stack?.stopExtraWeb('SIGTERM');
    await stack?.stop();
  });

  /** The same post, POSTS times at once from one session, alternating between the web processes. */
  function postInParallel(path: string, cookie: string, body: string): Promise<request.Response[]> {
    return Promise.all(
      Array.from({ length: POSTS }, (_, i) =>
        request(webUrls[i % webUrls.length]!)
          .post(path)
          .set('cookie', cookie)
          .set('sec-fetch-site', 'same-origin')
          .type('form')
          .send(body),
      ),
    );
  }

  async function readOut(prospectId: string): Promise<{ createCustomer: number[]; signatureRequests: number }> {
    return (await request(stack.sandboxUrl).get('/sandbox/customers').query({ prospectId }).expect(200)).body as {
      createCustomer: number[];
      signatureRequests: number;
    };
  }

  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it(`${POSTS} parallel "I have signed" after signing in another tab send one POST /api/2/customers`, async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'signInOtherTab');
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const signingUrl = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    await request(signingUrl).post('/sign').expect(303);
    const cookie = await cookieOf(agent, page);

    const answers = await postInParallel(`${page}/step`, cookie, `${SIGN}&intent=signed`);
    expect(answers.map((a) => [a.status, a.headers.location])).toEqual(answers.map(() => [303, creationPageOf(page)]));
    expect((await readOut(prospectId)).createCustomer).toEqual([200]);
  });

  it(`${POSTS} parallel "Sign with BankID" on milestone three request one signing URL`, async () => {
    const agent = request.agent(stack.webUrl);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'accounts');
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const cookie = await cookieOf(agent, page);

    const answers = await postInParallel(`${page}/step`, cookie, SIGN);
    const signingUrl = answers[0]!.headers.location as string;
    expect(signingUrl).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    expect(answers.map((a) => [a.status, a.headers.location])).toEqual(answers.map(() => [303, signingUrl]));
    expect((await readOut(prospectId)).signatureRequests).toBe(1);
  });

  it(`${POSTS} parallel "Sign agreements" on the legacy form's review save and request signing once`, async () => {
    const agent = request.agent(stack.webUrl);
    const { page: legacyPage, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
    const page = legacyPage.split('?')[0]!;
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const step = `${page}/step?shouldUseLegacyFlow=true`;
    await agent.post(step).set('sec-fetch-site', 'same-origin').type('form').send(legacyFormBody(persona)).expect(303);
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['EXISTING_STEP', 'review']);
    const cookie = await cookieOf(agent, page);

    const answers = await postInParallel(step, cookie, 'step=EXISTING_STEP&screen=review&intent=sign');
    const signingUrl = answers[0]!.headers.location as string;
    expect(signingUrl).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));
    expect(answers.map((a) => [a.status, a.headers.location])).toEqual(answers.map(() => [303, signingUrl]));
    const saved = (await request(stack.sandboxUrl).get('/sandbox/legacy').query({ prospectId }).expect(200)).body as Record<string, unknown[]>;
    expect([saved.regulations!.length, saved.updates!.length, saved.signatures!.length]).toEqual([1, 1, 1]);
  });

  it(`${POSTS} parallel "Try again" start one run, and a second tab's Try again for the same failed run starts none`, async () => {
    const agent = request.agent(stack.webUrl);
    // creationPostFails: every run's POST /api/2/customers is answered with data.message, so each run posts once and fails.
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'creationPostFails');
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const creationPage = creationPageOf(page);
    const signingUrl = (await postStep(agent, page, SIGN).expect(303)).headers.location as string;
    await request(signingUrl).post('/sign').expect(303);
    const failedAfter = async (runs: number) =>
      (await readOut(prospectId)).createCustomer.length >= runs && (await agent.get(creationPage).expect(200)).text.includes('Something went wrong');
    // The signing service's return lands on the creation page: run 1 starts and fails.
    await agent.get(creationPage).expect(200);
    await until('run 1 to fail', () => failedAfter(1));
    expect((await readOut(prospectId)).createCustomer).toEqual([200]);

    // Two tabs show the same failed run, each with its Try again button.
    const cookie = await cookieOf(agent, creationPage);
    const firstTab = tryAgainUrl((await agent.get(creationPage).expect(200)).text);
    const secondTab = tryAgainUrl((await agent.get(creationPage).expect(200)).text);

    // The first tab's button, posted ten times at once: one new run.
    const answers = await postInParallel(firstTab, cookie, '');
    expect(answers.map((a) => [a.status, a.headers.location])).toEqual(answers.map(() => [303, creationPage]));
    await until('run 2 to fail', () => failedAfter(2));
    expect((await readOut(prospectId)).createCustomer).toEqual([200, 200]);

    // The second tab still shows run 1's failure: its Try again is for a run that is over and starts nothing.
    await request(webUrls[webUrls.length - 1]!)
      .post(secondTab)
      .set('cookie', cookie)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('')
      .expect(303)
      .expect('location', creationPage);
    await until('the current run to show its failure', () => failedAfter(2));
    expect((await readOut(prospectId)).createCustomer).toEqual([200, 200]);
    // The page now offers the retry of run 2: one click, one more run.
    const thirdRun = tryAgainUrl((await agent.get(creationPage).expect(200)).text);
    expect(thirdRun).not.toBe(firstTab);
    await request(stack.webUrl).post(thirdRun).set('cookie', cookie).set('sec-fetch-site', 'same-origin').type('form').send('').expect(303);
    await until('run 3 to fail', () => failedAfter(3));
    expect((await readOut(prospectId)).createCustomer).toEqual([200, 200, 200]);
  });
});
