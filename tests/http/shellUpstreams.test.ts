// The page shell's upstream calls against the real sandbox: the content service's background image
// (cache, fallback) and the logout of current sessions on entry (identification-routing-creation §4, §7: 401 ignored).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startSandbox, type RunningSandbox } from '../../sandbox/main.ts';
import { createContentService, FALLBACK_BACKGROUND_URL } from '../../server/upstream/contentServiceClient.ts';
import { createBrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { UpstreamError } from '../../server/upstream/http.ts';
import { createServer } from 'node:net';

/** A port nothing listens on (this file stays clear of tests/support/stack.ts, which loads the whole server). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

let sandbox: RunningSandbox;
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

const contentOptions = (baseUrl: string, extra: Partial<Parameters<typeof createContentService>[0]> = {}) => ({
  baseUrl,
  timeoutMs: 1000,
  cacheMs: 60_000,
  allowedImageOrigins: [new URL(sandbox.url).origin],
  logger,
  ...extra,
});

describe('content service', () => {
  it('answers the ACE-Onboarding background image, and the sandbox serves it', async () => {
    const content = createContentService(contentOptions(sandbox.url));
    expect(content.backgroundUrl()).toBe(FALLBACK_BACKGROUND_URL);
    await content.refresh();
    const url = content.backgroundUrl();
    expect(url).toBe(`${sandbox.url}/sandbox/content/onboarding-background.svg`);
    const image = await fetch(url);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('falls back to the static image when the service is unreachable', async () => {
    const content = createContentService(contentOptions(`http://127.0.0.1:${await freePort()}`));
    await content.refresh();
    expect(content.backgroundUrl()).toBe(FALLBACK_BACKGROUND_URL);
  });

  it('falls back when the answer has no usable image or comes from an origin the CSP does not allow', async () => {
    const wrongPath = createContentService(contentOptions(`${sandbox.url}/nothing-here`));
    await wrongPath.refresh();
    expect(wrongPath.backgroundUrl()).toBe(FALLBACK_BACKGROUND_URL);
    const foreign = createContentService(contentOptions(sandbox.url, { allowedImageOrigins: ['https://cdn.example.com'] }));
    await foreign.refresh();
    expect(foreign.backgroundUrl()).toBe(FALLBACK_BACKGROUND_URL);
  });

  it('keeps the cached answer until the cache time is over, then refreshes in the background', async () => {
    let now = 0;
    const content = createContentService(contentOptions(sandbox.url, { cacheMs: 1000, now: () => now }));
    await content.refresh();
    const first = content.backgroundUrl();
    await sandbox.close();
    now = 500;
    expect(content.backgroundUrl()).toBe(first);
    now = 2000;
    // Stale: the page still gets the last good image while a refresh runs (and fails here).
    expect(content.backgroundUrl()).toBe(first);
    await content.refresh();
    expect(content.backgroundUrl()).toBe(FALLBACK_BACKGROUND_URL);
    sandbox = await startSandbox({ port: 0 });
  });
});

describe('brokerage logout', () => {
  it('ignores the 401 of both DELETE calls when there is no session', async () => {
    const brokerage = createBrokerageClient({ baseUrl: sandbox.url, timeoutMs: 1000 });
    await expect(brokerage.logout()).resolves.toBeUndefined();
  });

  it('ends a current session', async () => {
    const brokerage = createBrokerageClient({ baseUrl: sandbox.url, timeoutMs: 1000 });
    const personas = (await (await fetch(`${sandbox.url}/sandbox/personas`)).json()) as { nationalId: string }[];
    const session = await fetch(`${sandbox.url}/sandbox/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nationalId: personas[0]!.nationalId }),
    });
    const { refreshToken } = (await session.json()) as { refreshToken: string };
    const { jwt } = await brokerage.refreshToken(refreshToken);
    await brokerage.routingStatus(jwt);
    await brokerage.logout(jwt);
    await expect(brokerage.routingStatus(jwt)).rejects.toMatchObject({ status: 401 });
  });

  it('reports other failures (the caller logs them as a warning)', async () => {
    const brokerage = createBrokerageClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, timeoutMs: 1000 });
    await expect(brokerage.logout()).rejects.toBeInstanceOf(UpstreamError);
  });
});
