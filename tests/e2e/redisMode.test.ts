// The production shape on one machine: sandbox, web and worker as separate processes sharing Redis.
// The same journey as in embedded mode, a worker killed while a creation job is in flight, an SSE
// stream served by a second web process, and a graceful SIGTERM (those two reach the creation over HTTP).
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { browser, identifyAs, stack, useE2eStack } from '../support/e2e.ts';
import { collectPageErrors } from '../support/browser.ts';
import { expectSnapshotAccessible, recordMainTexts } from '../support/journey.ts';
import { agentCookies } from '../support/agentCookies.ts';
import { signOverHttp, walkToMilestoneThree } from '../support/customerInformation.ts';

useE2eStack({ mode: 'redis' });

/** Walks from the start page to the customer-creation page as the persona. */
async function journeyToCreation(scenario: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  // In the browser: the QR screen's polling, across processes sharing Redis, is part of the journey checked here.
  await identifyAs(page, scenario, { timeout: 20_000, inBrowser: true });
  await walkToMilestoneThree(page);
  await page.getByRole('button', { name: 'Sign with Bank ID' }).click();
  await page.getByRole('button', { name: 'Sign' }).click();
  await page.waitForURL(/\/onboarding\/customer-creation\//);
  return { context, page, errors };
}

/**
 * Signed over HTTP as the persona and its creation started by opening the creation page, as the browser's journey
 * does: for the tests of what the processes do next. Answers the prospect and the session's cookie header.
 */
async function creationStartedOverHttp(scenario: string): Promise<{ prospectId: string; cookie: string }> {
  const { agent, prospectId } = await signOverHttp(stack.webUrl, stack.sandboxUrl, scenario);
  await agent.get(`/onboarding/customer-creation/${encodeURIComponent(prospectId)}`).expect(200);
  return {
    prospectId,
    cookie: agentCookies(agent, stack.webUrl)
      .map((c) => `${c.name}=${c.value}`)
      .join('; '),
  };
}

/** Reads an SSE stream with the given cookie until a frame matches, then closes it. */
function readEventsUntil(url: string, cookie: string, match: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = http.get(url, { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`events answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (match.test(text)) {
          clearTimeout(timer);
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', (err) => {
      if (!match.test(text)) reject(err);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no frame matching ${match} within ${timeoutMs} ms; got: ${text}`));
    }, timeoutMs);
  });
}

describe('Redis mode: separate web, worker and sandbox processes', () => {
  it('walks the Swedish BankID journey to a created customer', async () => {
    const { context, page, errors } = await journeyToCreation('onboarding');
    const shown = await recordMainTexts(page);
    // On a copy: the outcome replaces the polling screen once it is in, which may happen while axe runs (a CI run saw it).
    await expectSnapshotAccessible(page, 'customer creation (redis mode)');
    await expect.poll(() => shown().some((text) => text.includes('Agreements signed')), { timeout: 20_000 }).toBe(true);
    // Continue: the login's hand-off, kept in Redis by the worker, read by the web, logs the person in on the bank's site.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/overview`, { timeout: 10_000 });
    expect(await page.locator('.login-status').getAttribute('data-logged-in')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('delivers the outcome after the worker is killed while a creation job is in flight', async () => {
    const { context, page } = await journeyToCreation('creationSlow');
    await expect.poll(() => page.locator('main').textContent()).toContain('Please wait...');
    // Kill the worker mid-run (no graceful shutdown), leave it dead for a while, then start a new one.
    await stack.killWorker();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await page.locator('main').textContent()).toContain('Please wait...');
    await stack.startWorker();
    await expect.poll(() => page.locator('main').textContent(), { timeout: 30_000 }).toContain('Agreements signed');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.sandboxUrl}/sandbox/overview`, { timeout: 10_000 });
    expect(await page.locator('.login-status').getAttribute('data-logged-in')).toBe('true');
    await context.close();
  });

  it('streams the outcome from another web process through Redis pub/sub', async () => {
    // The second web process is up before the creation starts, and the persona stays queued for 45 polls,
    // so the stream is open while the worker still publishes: the frames reach it only through pub/sub.
    const [second, { prospectId, cookie }] = await Promise.all([stack.startExtraWeb(), creationStartedOverHttp('creationStuck')]);
    const frames = await readEventsUntil(
      `${second}/onboarding/customer-creation/${encodeURIComponent(prospectId)}/events`,
      cookie,
      /"outcome":"maxPollingTries"/,
      45_000,
    );
    expect(frames).toMatch(/^retry: \d+/m);
    const ids = [...frames.matchAll(/^id: (\d+)\nevent: creation\ndata: .*"outcome":"queued"/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(frames).toMatch(/^id: \d+\nevent: creation\ndata: .*Something went wrong/m);
    await stack.stopExtraWeb('SIGTERM');
  });

  it('ends SSE streams with a retry hint and exits on SIGTERM within 10 s', async () => {
    const { prospectId, cookie } = await creationStartedOverHttp('creationStuck');
    const extra = await stack.startExtraWeb();
    let opened: () => void;
    const streaming = new Promise<void>((resolve) => (opened = resolve));
    const ended = new Promise<string>((resolve, reject) => {
      let text = '';
      http
        .get(`${extra}/onboarding/customer-creation/${encodeURIComponent(prospectId)}/events`, { headers: { cookie } }, (res) => {
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
            opened();
          });
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    // The stream is open (its first frame is in) before the process is told to stop.
    await Promise.race([streaming, ended]);
    const started = Date.now();
    const exitCode = await stack.stopExtraWeb('SIGTERM');
    const text = await ended;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(exitCode).toBe(0);
    expect(text).toMatch(/retry: \d+\n\n$/);
  });
});
