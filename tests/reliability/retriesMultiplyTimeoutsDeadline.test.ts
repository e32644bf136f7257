// Retries multiplied timeouts into minutes: routing tried its status 14 times and the file, case and citizenship calls
// 10 times, each up to the upstream timeout (143 s for one page). Now every request the person waits on has one deadline
// (REQUEST_DEADLINE_MS) its calls and retries share; past it the person gets the spec's try-again screen. The sandbox
// answers late; a counting proxy counts the calls that reached the brokerage. Separate sandbox, web and worker
// processes on Redis; nothing asserts a speed.
import { createServer, request as httpRequest, type Server } from 'node:http';
import request from 'supertest';
import { citizenshipProofUpload, screenOf } from '../support/customerInformation.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { freePort, startRedisStack, type Stack } from '../support/stack.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { samplePdf } from '../support/files.ts';

type Agent = ReturnType<typeof request.agent>;

const UPSTREAM_TIMEOUT_MS = 1000;
const REQUEST_DEADLINE_MS = 3000;
/** Later than the upstream timeout: every try of a faulty call times out. */
const LATE_MS = 2000;
/** Well past the deadline, well short of the tries the spec's retry counts would take (14 × 1.2 s, 10 × 1.5 s). */
const CLIENT_TIMEOUT_MS = 10_000;

const TRY_AGAIN_IDENTIFICATION = 'Please try again. If the problem persists, contact customer service.';
const TRY_AGAIN_STEP = 'Please try again at a later time. If the problem persists, please contact customer service.';
const UPLOAD_FAILED = 'The file could not be uploaded, please try again';

/** Forwards everything to `target` (set once the sandbox runs) and counts calls per "METHOD /path". */
function countingProxy(): { url: Promise<string>; setTarget(url: string): void; count(method: string, path: string): number; close(): Promise<void> } {
  const counts = new Map<string, number>();
  let target: URL | undefined;
  const server: Server = createServer((req, res) => {
    const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!target) return void res.writeHead(502).end();
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // The web process gave up on the call (its timeout or deadline): so does the proxy.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  const url = freePort().then((port) => new Promise<string>((resolve) => server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${port}`))));
  return {
    url,
    setTarget: (u) => (target = new URL(u)),
    count: (method, path) => counts.get(`${method} ${path}`) ?? 0,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

let proxy: ReturnType<typeof countingProxy>;
let stack: Stack;
/** Calls that reached the upstream per case, printed for the record. */
const seen: string[] = [];

beforeAll(async () => {
  proxy = countingProxy();
  const proxyUrl = await proxy.url;
  stack = await startRedisStack({
    BROKERAGE_API_URL: proxyUrl,
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    REQUEST_DEADLINE_MS: String(REQUEST_DEADLINE_MS),
    // The spec's retry counts and delays (identification-routing-creation §9, customer-information §9).
    ROUTING_RETRIES: '14',
    ROUTING_RETRY_DELAY_MS: '200',
    FILE_RETRY_DELAY_MS: '500',
  });
  proxy.setTarget(stack.sandboxUrl);
});
afterAll(async () => {
  await stack?.stop();
  await proxy?.close();
  if (seen.length) console.log(`upstream calls per request: ${seen.join(', ')}`);
});
beforeEach(async () => {
  await request(stack.sandboxUrl).post('/sandbox/reset').expect(204);
});

const late = (method: string, path: string, count: number) =>
  request(stack.sandboxUrl).post('/sandbox/faults').send({ method, path, delayMs: LATE_MS, count }).expect(204);
const stepOf = screenOf;
const post = (agent: Agent, page: string, form: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(form);

/** The answer, or 'no answer' when the client's timeout ran out first (the defect). */
async function answer(test: request.Test): Promise<{ status: number; text: string } | 'no answer'> {
  try {
    const res = await test.timeout(CLIENT_TIMEOUT_MS).redirects(0);
    return { status: res.status, text: res.text };
  } catch (err) {
    if ((err as { timeout?: unknown }).timeout !== undefined) return 'no answer';
    throw err;
  }
}

async function toCitizenship(agent: Agent): Promise<string> {
  const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'citizenship');
  expect(stepOf((await agent.get(page).expect(200)).text)).toEqual(['CITIZENSHIP_STEP', 'choice']);
  return page;
}

describe('retries multiply timeouts into minutes', () => {
  it('routing: the 14 tries share the deadline; the person gets the try-again identification error', async () => {
    const agent = request.agent(stack.webUrl);
    // Every routing-status try answers after the upstream timeout.
    await late('GET', brokeragePaths.routingStatus, 14);
    const before = proxy.count('GET', brokeragePaths.routingStatus);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const tries = proxy.count('GET', brokeragePaths.routingStatus) - before;
    seen.push(`routing status ${tries}`);

    // Routing answered with the identification error screen (its redirect to Onboarding).
    expect(page).toBe('/onboarding');
    const screen = await agent.get('/onboarding').expect(200);
    expect(screen.text).toContain(TRY_AGAIN_IDENTIFICATION);
    // A 3 s deadline holds at most 3 tries of 1 s each (and the 200 ms waits between them), not 14.
    expect(tries).toBeGreaterThanOrEqual(1);
    expect(tries).toBeLessThanOrEqual(3);
  });

  it('customer information: the citizenship call’s 10 tries share the deadline; the step shows its try-again banner', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toCitizenship(agent);
    await late('POST', brokeragePaths.submitCitizenshipV3, 10);
    const before = proxy.count('POST', brokeragePaths.submitCitizenshipV3);

    const res = await answer(post(agent, page, 'step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=inOfficeCitizenship'));
    const tries = proxy.count('POST', brokeragePaths.submitCitizenshipV3) - before;
    seen.push(`submit-citizenship ${tries} (${res === 'no answer' ? 'no answer' : res.status})`);

    expect(res).not.toBe('no answer');
    if (res !== 'no answer') {
      expect(res.status).toBe(502);
      expect(res.text).toContain(TRY_AGAIN_STEP);
      // The person stays on the step, nothing was skipped.
      expect(stepOf(res.text)).toEqual(['CITIZENSHIP_STEP', 'choice']);
    }
    expect(tries).toBeGreaterThanOrEqual(1);
    expect(tries).toBeLessThanOrEqual(3);
  });

  it('uploads: init-file-upload’s 10 tries share the deadline; the upload answers its failed message', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toCitizenship(agent);
    // Another citizenship (after the dialog), then Norway: the proof screen with an upload for Norway.
    await post(agent, page, 'step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships&confirmed=yes').expect(303);
    await post(agent, page, 'step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=SE&countries=NO').expect(303);
    expect(stepOf((await agent.get(page).expect(200)).text)).toEqual(['CITIZENSHIP_STEP', 'proof']);

    await late('POST', brokeragePaths.initFileUpload, 10);
    const before = proxy.count('POST', brokeragePaths.initFileUpload);
    const res = await answer(citizenshipProofUpload(agent.post(`${page}/step`), { country: 'NO', bytes: samplePdf(), name: 'passport.pdf' }));
    const tries = proxy.count('POST', brokeragePaths.initFileUpload) - before;
    seen.push(`init-file-upload ${tries} (${res === 'no answer' ? 'no answer' : res.status})`);

    expect(res).not.toBe('no answer');
    if (res !== 'no answer') {
      expect(res.status).toBe(400);
      expect(res.text).toContain(UPLOAD_FAILED);
      expect(stepOf(res.text)).toEqual(['CITIZENSHIP_STEP', 'proof']);
    }
    expect(tries).toBeGreaterThanOrEqual(1);
    expect(tries).toBeLessThanOrEqual(3);
  });
});
