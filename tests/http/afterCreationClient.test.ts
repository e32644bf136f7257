// The typed brokerage client's calls of the end of creation (server/upstream/brokerageAfterCreationCalls.ts;
// identification-routing-creation §4 "Customer creation", §7): against a listening sandbox, the login session and the
// affiliate conversion reach it once per attempt (the Idempotency-Key), the lead number is parsed, failures throw
// UpstreamError with the status; against a recording server, exactly what is sent, and an answer outside the contract refused.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { brokeragePaths, IDEMPOTENCY_KEY_HEADER } from '../../shared/contracts/brokerageContract.ts';
import { createBrokerageClient, type BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { idempotencyHeaders } from '../../server/upstream/idempotency.ts';
import { listeningSandboxWithClient, personaFor } from '../support/sandboxApi.ts';
import { upstreamRejection } from '../support/upstreamRejection.ts';

const LEAD_NUMBER = /^LN-\d+$/;

const sandbox = listeningSandboxWithClient();
let client: BrokerageClient;
beforeAll(() => {
  client = sandbox.client;
});

/** A person of the scenario, identified through the session shortcut, with a new prospect. */
async function personWithProspect(scenario: string): Promise<{ jwt: string; prospectId: string }> {
  const persona = await personaFor(sandbox.url, scenario);
  const session = await request(sandbox.url).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const { jwt } = await client.refreshToken(session.body.refreshToken as string);
  await client.becomeCustomerIntent(jwt, 'SE');
  await client.submitValidationStep(jwt, 'SE', true);
  return { jwt, prospectId: (await client.createProspect(jwt, 'SE', false)).prospect_id };
}

const readOut = async (prospectId: string) => (await request(sandbox.url).get('/sandbox/after-creation').query({ prospectId }).expect(200)).body;

describe('against the sandbox', () => {
  it('startLoginSession: the same attempt starts one login session, another attempt a second', async () => {
    const { jwt, prospectId } = await personWithProspect('onboarding');
    const first = await client.startLoginSession(jwt, 'run-1');
    expect(first).toEqual({ handoffCode: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/), expiresInSeconds: expect.any(Number) });
    expect(await client.startLoginSession(jwt, 'run-1')).toEqual(first);
    expect(await readOut(prospectId)).toEqual({ loginSessions: 1, leadNumbers: [] });
    await client.startLoginSession(jwt, 'run-2');
    expect((await readOut(prospectId)).loginSessions).toBe(2);
  });

  it('affiliateConversion: answers the parsed lead number; the same attempt answers the same one, once', async () => {
    const { jwt, prospectId } = await personWithProspect('onboarding');
    const first = await client.affiliateConversion(jwt, prospectId, 'run-1');
    expect(first).toEqual({ leadNumber: expect.stringMatching(LEAD_NUMBER) });
    expect(await client.affiliateConversion(jwt, prospectId, 'run-1')).toEqual(first);
    expect(await readOut(prospectId)).toEqual({ loginSessions: 0, leadNumbers: [first.leadNumber] });
  });

  it('throws UpstreamError with the status: 500 for the failing personas, 401 for a refused token, 403 for another’s prospect', async () => {
    const failingLogin = await personWithProspect('loginSessionFails');
    expect((await upstreamRejection(client.startLoginSession(failingLogin.jwt, 'run-1'))).status).toBe(500);
    const failingConversion = await personWithProspect('affiliateConversionFails');
    expect((await upstreamRejection(client.affiliateConversion(failingConversion.jwt, failingConversion.prospectId, 'run-1'))).status).toBe(500);
    expect(await readOut(failingLogin.prospectId)).toEqual({ loginSessions: 0, leadNumbers: [] });
    expect(await readOut(failingConversion.prospectId)).toEqual({ loginSessions: 0, leadNumbers: [] });

    expect((await upstreamRejection(client.startLoginSession('not-a-token', 'run-1'))).status).toBe(401);
    expect((await upstreamRejection(client.affiliateConversion('not-a-token', failingConversion.prospectId, 'run-1'))).status).toBe(401);
    expect((await upstreamRejection(client.affiliateConversion(failingLogin.jwt, failingConversion.prospectId, 'run-1'))).status).toBe(403);
  });
});

describe('against a recording server', () => {
  interface Received {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: string;
  }
  const received: Received[] = [];
  /** What the server answers next: status and body text. */
  let answer: { status: number; body?: string } = { status: 204 };
  let server: Server;
  let recorded: BrokerageClient;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(answer.status, answer.body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    recorded = createBrokerageClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('startLoginSession posts no body, as the person, with the key of its attempt; answers the hand-off, and refuses an answer without one', async () => {
    received.length = 0;
    const handoff = { handoffCode: 'C'.repeat(43), expiresInSeconds: 300 };
    answer = { status: 200, body: JSON.stringify(handoff) };
    expect(await recorded.startLoginSession('the-jwt', 'run-1')).toEqual(handoff);
    // No code, no login for the person: a 204 or an answer outside the contract is a failure.
    answer = { status: 204 };
    await upstreamRejection(recorded.startLoginSession('the-jwt', 'run-2'));
    answer = { status: 200, body: '{"data":{}}' };
    await upstreamRejection(recorded.startLoginSession('the-jwt', 'run-2'));
    received.splice(1, 1);
    const expectedKey = (attempt: string) => idempotencyHeaders(attempt, 'POST', brokeragePaths.nnxSessionLogin, null)[IDEMPOTENCY_KEY_HEADER];
    expect(received.map((r) => [r.method, r.url, r.headers.authorization, r.headers[IDEMPOTENCY_KEY_HEADER], r.body])).toEqual([
      ['POST', brokeragePaths.nnxSessionLogin, 'Bearer the-jwt', expectedKey('run-1'), ''],
      ['POST', brokeragePaths.nnxSessionLogin, 'Bearer the-jwt', expectedKey('run-2'), ''],
    ]);
    expect(expectedKey('run-1')).not.toBe(expectedKey('run-2'));
  });

  it('affiliateConversion posts { prospectId } with the key of its attempt and refuses an answer outside the contract', async () => {
    received.length = 0;
    answer = { status: 200, body: '{"leadNumber":"LN-0012345678"}' };
    expect(await recorded.affiliateConversion('the-jwt', 'p-1', 'run-1')).toEqual({ leadNumber: 'LN-0012345678' });
    const [call] = received;
    expect([call!.method, call!.url, call!.headers.authorization, call!.headers['content-type']]).toEqual([
      'POST',
      brokeragePaths.affiliateConversion,
      'Bearer the-jwt',
      'application/json',
    ]);
    expect(JSON.parse(call!.body)).toEqual({ prospectId: 'p-1' });
    expect(call!.headers[IDEMPOTENCY_KEY_HEADER]).toBe(
      idempotencyHeaders('run-1', 'POST', brokeragePaths.affiliateConversion, { prospectId: 'p-1' })[IDEMPOTENCY_KEY_HEADER],
    );

    for (const body of ['{"leadNumber":12345}', '{"leadNumber":"12345"}', '{}']) {
      answer = { status: 200, body };
      const err = await upstreamRejection(recorded.affiliateConversion('the-jwt', 'p-1', 'run-1'));
      expect(err.message).toMatch(/unexpected answer shape/);
    }
    answer = { status: 500, body: '{"data":{"message":"down"}}' };
    expect((await upstreamRejection(recorded.affiliateConversion('the-jwt', 'p-1', 'run-1'))).status).toBe(500);
  });

  it('refuses to send an empty prospect id', async () => {
    received.length = 0;
    await expect(recorded.affiliateConversion('the-jwt', '', 'run-1')).rejects.toThrow();
    expect(received).toEqual([]);
  });
});
