// Overlapping uploads lost documents: on a slow upstream a request that waited for the per-session lock went on without
// it, and 20 uploads answered "uploaded" kept 1. Now a request never changes the session without its lock: one that
// cannot get it is told its file was not uploaded, and every upload answered "uploaded" is in the list. Redis mode with
// two web processes the uploads alternate between; a short SESSION_LOCK_WAIT_MS so most uploads queue past it behind a
// slow init-file-upload.
import request from 'supertest';
import { citizenshipProofUpload, screenOf } from '../support/customerInformation.ts';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, startRedisStack, type Stack } from '../support/stack.ts';
import { sessionLockKey } from '../support/redisKeys.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { samplePdf } from '../support/files.ts';
import { routes } from '../../shared/routes.ts';

const UPLOADS = 20;
const INIT_UPLOAD_DELAY_MS = 700;

const prefix = `test-uploads-${randomUUID().slice(0, 8)}`;
let stack: Stack;
let secondWebUrl: string;

beforeAll(async () => {
  stack = await startRedisStack({ REDIS_PREFIX: prefix, SESSION_LOCK_WAIT_MS: '1500', FILE_RETRY_DELAY_MS: '5' });
  secondWebUrl = await stack.startExtraWeb();
});

afterAll(async () => stack?.stop());

type Agent = ReturnType<typeof request.agent>;

const keptNames = (html: string) => new Set(html.match(/doc-\d+\.pdf/g) ?? []);

async function toNorwegianProof(agent: Agent, page: string): Promise<void> {
  const post = (body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303);
  await post('step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships&confirmed=yes');
  await post('step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=NO');
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['CITIZENSHIP_STEP', 'proof']);
}

/** The session cookie as a Cookie header (it is sent to both web processes); the page view does not send it again. */
function cookieOf(agent: ReturnType<typeof request.agent>): string {
  const value = agent.jar.getCookie('onb.sid', { domain: '127.0.0.1', path: '/', secure: false, script: false })?.value;
  expect(value).toBeDefined();
  return `onb.sid=${value}`;
}

const upload = (webUrl: string, page: string, cookie: string, name: string) =>
  citizenshipProofUpload(request(webUrl).post(`${page}/step`).set('cookie', cookie), { country: 'NO', bytes: samplePdf(), name });

describe('overlapping uploads lose documents', () => {
  it(`keeps every upload answered "uploaded" when ${UPLOADS} overlap on a slow upstream across two web processes, and tells each refused one`, async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
    await toNorwegianProof(agent, page);
    const cookie = cookieOf(agent);

    await request(stack.sandboxUrl)
      .post('/sandbox/faults')
      .send({ method: 'POST', path: '/api/2/onboarding/init-file-upload', delayMs: INIT_UPLOAD_DELAY_MS, count: UPLOADS })
      .expect(204);
    const names = Array.from({ length: UPLOADS }, (_, i) => `doc-${String(i + 1).padStart(2, '0')}.pdf`);
    const answers = await Promise.all(names.map((name, i) => upload(i % 2 === 0 ? stack.webUrl : secondWebUrl, page, cookie, name)));
    await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'POST', path: '/api/2/onboarding/init-file-upload', count: 0 }).expect(204);

    // Every answer is either "uploaded" (back to the step) or "not uploaded, try again" (the step with a banner).
    const uploaded = names.filter((_, i) => answers[i]!.status === 303 && answers[i]!.headers.location === page);
    const refused = names.filter((_, i) => answers[i]!.status === 303 && answers[i]!.headers.location === `${page}?notSaved=upload`);
    expect(uploaded.length + refused.length).toBe(UPLOADS);

    const kept = keptNames((await agent.get(page).expect(200)).text);
    // Before: 20 of 20 answered "uploaded", only a few kept. Never "uploaded" and lost.
    expect({ answeredUploaded: uploaded.length, keptOfThose: uploaded.filter((n) => kept.has(n)).length }).toEqual({
      answeredUploaded: uploaded.length,
      keptOfThose: uploaded.length,
    });
    // A refused file was not attached, and the person is told so on the step.
    expect(refused.filter((n) => kept.has(n))).toEqual([]);
    if (refused.length > 0) {
      const told = await agent.get(`${page}?notSaved=upload`).expect(200);
      expect(told.text).toContain('Your file was not uploaded because we could not save it just now. Please upload it again.');
      expect(screenOf(told.text)).toEqual(['CITIZENSHIP_STEP', 'proof']);
    }

    // Trying again works: in the end all 20 are kept.
    for (const [i, name] of refused.entries()) {
      const again = await upload(i % 2 === 0 ? secondWebUrl : stack.webUrl, page, cookie, name);
      expect(again.headers.location).toBe(page);
    }
    expect(keptNames((await agent.get(page).expect(200)).text).size).toBe(UPLOADS);
  }, 120_000);
});

describe('overlapping uploads lose documents: a request that cannot get the lock', () => {
  it('is refused and told, never run unlocked: the BankID poll gets a JSON 503 its island retries, a page that writes a translated try-again page, a step post the step with a banner; a read-only page view answers', async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
    await toNorwegianProof(agent, page);
    const cookie = cookieOf(agent);
    const signed = decodeURIComponent(/onb\.sid=([^;]+)/.exec(cookie)![1]!);
    const sessionId = signed.slice(2, signed.lastIndexOf('.'));

    // Another request of this person holds the lock (as another web process would), for longer than the wait.
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    const lockKey = sessionLockKey(prefix, sessionId);
    await redis.set(lockKey, 'another-request', { PX: 60_000 });
    try {
      const poll = await request(stack.webUrl).get('/onboarding/identification/bankid/status').set('cookie', cookie).set('accept', 'application/json');
      expect(poll.status).toBe(503);
      expect(poll.headers['retry-after']).toBe('1');
      expect(poll.body).toEqual({ error: 'Busy, try again' });

      // The start page writes (an entry query, the broker's answer), so it takes the lock.
      const start = await request(secondWebUrl).get(routes.start).set('cookie', cookie).expect(503);
      expect(start.text).toContain('We could not handle your request just now');
      expect(start.text).toContain(`href="${routes.start}"`);
      // The step page only reads (server/app.ts): it neither waits for the lock nor is refused.
      const view = await request(secondWebUrl).get(page).set('cookie', cookie).expect(200);
      expect(screenOf(view.text)).toEqual(['CITIZENSHIP_STEP', 'proof']);

      const countries = await request(stack.webUrl)
        .post(`${page}/step`)
        .set('cookie', cookie)
        .set('sec-fetch-site', 'same-origin')
        .type('form')
        .send('step=CITIZENSHIP_STEP&intent=countries&countries=DK')
        .expect(303);
      expect(countries.headers.location).toBe(`${page}?notSaved=change`);
      const file = await upload(secondWebUrl, page, cookie, 'doc-refused.pdf').expect(303);
      expect(file.headers.location).toBe(`${page}?notSaved=upload`);
    } finally {
      await redis.del(lockKey);
      await redis.quit();
    }

    // Nothing of the refused requests reached the session or the storage.
    const after = await agent.get(`${page}?notSaved=change`).expect(200);
    expect(after.text).toContain('Your last answer was not saved because we could not save it just now. Please try again.');
    expect(after.text).not.toContain('doc-refused.pdf');
    expect(after.text).toContain('Norway');
    expect(after.text).not.toContain('Denmark');
  });
});
