// HTTP tests of the system-status banners in the page shell (identification-routing-creation §8 "Account creation paused
// banner, titled Maintenance status", "High-load notice", §9; customer-information §8): the start page and a step page
// show what the brokerage's status says, as the sandbox's control sets it; a failing or slow status call shows none and
// the page still answers. The cache time is 0 here, so every page reads the status anew.
// The stack and helpers: tests/support/serverHttp.ts.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { brokeragePaths } from '../../shared/contracts/brokerageContract.ts';
import { decode, h1, identifyAndRoute, stack, useServerStack, type Agent } from '../support/serverHttp.ts';
import { signOverHttp } from '../support/customerInformation.ts';

useServerStack({ SYSTEM_STATUS_CACHE_MS: '0', SYSTEM_STATUS_TIMEOUT_MS: '300' });

const MAINTENANCE = 'Maintenance status Account opening is temporarily closed because of maintenance over a weekend.';
const HIGH_LOAD =
  'Possible delays Many people are opening accounts right now, so opening yours may take longer than usual. Log in after a few hours to check whether your account is ready.';

const setStatus = (body: object) => request(stack.sandboxUrl).post('/sandbox/system-status').send(body).expect(200);

afterEach(async () => {
  await setStatus({});
});

/** The status regions of a page (named by their titles), as read, and whether each comes before main's first form and heading. */
function statusBanners(html: string): Array<{ text: string; beforeContent: boolean }> {
  const main = /<main id="main"[^>]*>([\s\S]*)<\/main>/.exec(html)![1]!;
  const firstContent = Math.min(...['<form', '<h1'].map((tag) => main.indexOf(tag)).filter((i) => i >= 0));
  return [...main.matchAll(/<div class="banner[^"]*" role="region" aria-labelledby="(system-status-[\w-]+)">([\s\S]*?)<\/div>/g)].map((m) => {
    expect(m[2]).toContain(`id="${m[1]}"`);
    return {
      text: decode(
        m[2]!
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ),
      beforeContent: m.index < firstContent,
    };
  });
}

const startPage = () => request(stack.webUrl).get('/onboarding').expect(200);

describe('system status banners', () => {
  let agent: Agent;
  let stepPage: string;

  beforeAll(async () => {
    agent = request.agent(stack.webUrl);
    stepPage = await identifyAndRoute(agent, 'onboarding');
    expect(stepPage).toMatch(/^\/onboarding\/customer-information\//);
  });

  const pages = () => [
    { name: 'start page', load: startPage },
    { name: 'step page', load: () => agent.get(stepPage).expect(200) },
  ];

  it('shows none while all is clear', async () => {
    for (const { load } of pages()) expect(statusBanners((await load()).text)).toEqual([]);
  });

  it('shows the weekend maintenance banner while account creation is paused, before the content', async () => {
    await setStatus({ creationPaused: true });
    for (const { name, load } of pages()) {
      expect([name, statusBanners((await load()).text)]).toEqual([name, [{ text: MAINTENANCE, beforeContent: true }]]);
    }
  });

  it('shows the high-load notice when the feedback banner says HIGH_LOAD, and both together', async () => {
    await setStatus({ feedbackBanner: 'HIGH_LOAD' });
    for (const { name, load } of pages()) {
      expect([name, statusBanners((await load()).text)]).toEqual([name, [{ text: HIGH_LOAD, beforeContent: true }]]);
    }
    await setStatus({ creationPaused: true, feedbackBanner: 'HIGH_LOAD' });
    expect(statusBanners((await startPage()).text).map((b) => b.text)).toEqual([MAINTENANCE, HIGH_LOAD]);
  });

  it('shows nothing for a feedback banner it has no text for', async () => {
    await setStatus({ feedbackBanner: 'SOMETHING_NEW' });
    expect(statusBanners((await startPage()).text)).toEqual([]);
  });

  it('a failing status call shows no banner and the pages still answer', async () => {
    await setStatus({ creationPaused: true, feedbackBanner: 'HIGH_LOAD', failing: true });
    for (const { name, load } of pages()) {
      const page = await load();
      expect([name, statusBanners(page.text)]).toEqual([name, []]);
      expect(h1(page.text)).toBeTruthy();
    }
  });

  it('a status call slower than its deadline shows no banner, and the page answers without waiting for it', async () => {
    await setStatus({ creationPaused: true });
    for (const { name, load } of pages()) {
      // The next status call answers after 5 s; the web gives up on it after 300 ms.
      await request(stack.sandboxUrl).post('/sandbox/faults').send({ method: 'GET', path: brokeragePaths.systemStatus, delayMs: 5000 }).expect(204);
      const page = await load();
      expect([name, statusBanners(page.text)]).toEqual([name, []]);
      expect(h1(page.text)).toBeTruthy();
    }
    // The next page asks again and shows the banner.
    expect(statusBanners((await startPage()).text).map((b) => b.text)).toEqual([MAINTENANCE]);
  });

  it("the creation page's creationPaused outcome keeps its own maintenance banner and the shell adds no second one", async () => {
    const { agent: signed, prospectId } = await signOverHttp(stack.webUrl, stack.sandboxUrl, 'creationPaused');
    const creation = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
    await signed.get(creation).expect(200);
    // The worker's own status call (with the person's token) ends the run paused.
    await expect.poll(async () => h1((await signed.get(creation).expect(200)).text)).toBe('Maintenance status');
    await setStatus({ creationPaused: true });
    const html = (await signed.get(creation).expect(200)).text;
    const regions = [...html.matchAll(/role="region" aria-labelledby="([^"]+)"/g)].map((m) => m[1]);
    expect(regions).toEqual(['creation-paused-title']);
  });
});
