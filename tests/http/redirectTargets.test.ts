// Every parameter that can redirect, sent each known bypass (tests/support/redirectBypasses.ts): the Location is only
// ever a path of our own origin or the market's get-started page (identification-routing-creation §4 "Redirect
// sanitising"): clientUrl after creation (a path of the bank's site), the broker's return restoring the entry's query,
// Finnish lang, the signing service's returns; any other path goes to the start. Over HTTP against the embedded stack.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logCapture, startEmbeddedStack, type Stack } from '../support/stack.ts';
import { atMilestoneThreeOverHttp } from '../support/customerInformation.ts';
import { postContinue, postStep } from '../support/journey.ts';
import { redirectBypasses } from '../support/redirectBypasses.ts';
import { CARRIED_VALUE_MAX } from '../../shared/carriedQuery.ts';
import { encodeState } from '../../shared/oidcState.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';

const getStarted: Record<CountryCode, string> = {
  SE: 'https://www.bank.example/se/kom-igang',
  NO: 'https://www.bank.example/no/kom-i-gang',
  DK: 'https://www.bank.example/dk/kom-i-gang',
  FI: 'https://www.bank.example/fi/aloita',
};
const BANK_SITE_URL = 'https://www.bank.example';
const logs = logCapture();
let stack: Stack;
let port: string;
beforeAll(async () => {
  const env = Object.fromEntries(Object.entries(getStarted).map(([m, url]) => [`GET_STARTED_URL_${m}`, url]));
  stack = await startEmbeddedStack({ ...env, BANK_SITE_URL, BANK_SITE_HANDOFF_PATH: '/login/handoff', LOG_LEVEL: 'info' }, { logDestination: logs.stream });
  port = new URL(stack.webUrl).port;
});
afterAll(async () => stack?.stop());

/** A Location the browser resolves to our own origin, however leniently it reads it, or exactly the market's get-started page. */
function expectOursOrGetStarted(location: unknown, country: CountryCode = 'SE'): void {
  expect(location).toEqual(expect.any(String));
  const value = location as string;
  if (value === getStarted[country]) return;
  expect(value).toMatch(/^\/(?![/\\])/);
  expect(value).not.toMatch(/[\\\s\p{Cc}\p{Cf}]/u);
  const own = new URL(stack.webUrl).origin;
  expect(new URL(value, own).origin).toBe(own);
  expect(new URL(value.replace(/[\t\n\r]/g, '').replace(/\\/g, '/'), own).origin).toBe(own);
}

/** The bypasses a query value can carry to the journey (longer values are not carried: shared/carriedQuery.ts). */
const carried = redirectBypasses.filter((b) => b.length <= CARRIED_VALUE_MAX);
const q = (value: string) => encodeURIComponent(value);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('clientUrl: Continue after creation', () => {
  it('goes to the entry’s clientUrl as a path of the bank’s site, every bypass to the get-started page; the tracking event names clientId', async () => {
    const agent = request.agent(stack.webUrl);
    // The entry, before identification: kept in the visit cookie, then in the session.
    await agent.get(`/onboarding?clientId=partner-1&clientUrl=${q('/sv/mina-sidor?from=app')}`).expect(200);
    const page = await atMilestoneThreeOverHttp(agent, stack.sandboxUrl, 'onboarding');
    const prospectId = decodeURIComponent(page.split('/').pop()!);
    const toSigning = await postStep(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone').expect(303);
    await request(stack.sandboxUrl)
      .post(`${new URL(toSigning.headers.location as string).pathname}/sign`)
      .expect(303);
    const creation = `/onboarding/customer-creation/${encodeURIComponent(prospectId)}`;
    for (let shown = ''; !shown.includes('Agreements signed'); await sleep(100)) {
      shown = (await agent.get(creation).expect(200)).text;
      expect(shown).not.toContain('Something went wrong');
    }
    // Continue (a post) leads to the bank site's login hand-off with the target as its return path (a path belongs to
    // the bank's site), or straight to a target elsewhere (the get-started page): answers that final target.
    const continued = async () => {
      const location = (await postContinue(agent, prospectId).expect(303)).headers.location as string;
      const handoff = new URL(location, stack.webUrl);
      if (`${handoff.origin}${handoff.pathname}` !== `${BANK_SITE_URL}/login/handoff`) return location;
      expect(handoff.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      return `${BANK_SITE_URL}${handoff.searchParams.get('returnTo')}`;
    };
    expect(await continued()).toBe(`${BANK_SITE_URL}/sv/mina-sidor?from=app`);
    const tracked = logs.logged('creation outcome tracked');
    expect(tracked).toEqual([expect.objectContaining({ outcome: 'done', market: 'SE', clientId: 'partner-1' })]);

    // A later entry's clientUrl replaces it: each bypass leads to the get-started page, and is logged without its value.
    for (const bypass of carried) {
      await agent.get(`/onboarding?clientUrl=${q('/sv/oversikt')}`);
      expect(await continued()).toBe(`${BANK_SITE_URL}/sv/oversikt`);
      await agent.get(`/onboarding?clientUrl=${q(bypass)}`);
      const location = await continued();
      expect(location, JSON.stringify(bypass)).toBe(getStarted.SE);
    }
    const rejected = logs.logged('redirect target rejected: the get-started page instead');
    expect(rejected).toHaveLength(carried.length);
    expect(rejected.every((l) => l.param === 'clientUrl' && typeof l.reason === 'string')).toBe(true);
    expect(JSON.stringify(rejected)).not.toContain('evil');
  }, 60_000);
});

describe('the broker’s return page (OnboardingSignicat) restores the query onto our start page only', () => {
  it.each(carried.map((b) => [JSON.stringify(b), b]))('%s', async (_shown, bypass) => {
    for (const name of ['clientUrl', 'clientId', 'epk', 'lang', 'webview'] as const) {
      const state = encodeState('random', { [name]: bypass, clientUrl: bypass });
      for (const query of [`code=c&state=${q(state)}`, `error=access_denied&state=${q(state)}`, `state=${q(state)}`]) {
        const back = await request(stack.webUrl).get(`/onboarding/signicat?${query}`).expect(302);
        expectOursOrGetStarted(back.headers.location);
        expect(back.headers.location).toMatch(/^\/onboarding(\?|$)/);
      }
    }
  });
});

describe('Finnish lang reloads the start page without it, on our own path', () => {
  it.each(carried.map((b) => [JSON.stringify(b), b]))('%s', async (_shown, bypass) => {
    const fi = `fi.localhost:${port}`;
    for (const query of [`lang=fi&clientUrl=${q(bypass)}`, `clientUrl=${q(bypass)}&lang=sv&${q(bypass)}=x`]) {
      const res = await request(stack.webUrl).get(`/onboarding?${query}`).set('host', fi).expect(302);
      expectOursOrGetStarted(res.headers.location, 'FI');
      expect(res.headers.location).toMatch(/^\/onboarding(\?|$)/);
    }
  });
});

describe('the signing service’s returns and any other path stay on our paths', () => {
  it.each(carried.map((b) => [JSON.stringify(b), b]))('%s', async (_shown, bypass) => {
    for (const end of ['signing-cancelled', 'signing-postponed']) {
      const res = await request(stack.webUrl).get(`/onboarding/customer-information/${q(bypass)}/${end}?order=${q(bypass)}`);
      // 302: an empty prospect id is no such route (any other path goes to the start).
      expect([302, 303]).toContain(res.status);
      expectOursOrGetStarted(res.headers.location);
    }
    const other = await request(stack.webUrl).get(`/${q(bypass)}`);
    if (other.status === 302) expectOursOrGetStarted(other.headers.location);
    else expect(other.headers.location).toBeUndefined();
  });

  it.each(['//evil.example', '//evil.example/onboarding', '/%2F%2Fevil.example', '/%5Cevil.example', '/.//evil.example', '/onboarding/..//evil.example'])(
    'the request path %s',
    async (path) => {
      const res = await request(stack.webUrl).get(path);
      if (res.status >= 300 && res.status < 400) expectOursOrGetStarted(res.headers.location);
      else expect(res.headers.location).toBeUndefined();
    },
  );
});

describe('the entry query in the request log', () => {
  it('names the parameters, never the values of clientUrl, clientId or tracking ids (they may carry a name)', async () => {
    logs.clear();
    const entry = `/onboarding?lang=en&clientId=partner-7&clientUrl=${q('/sv/kund/astrid-lindqvist')}&tduid=track-42&utm_campaign=lindqvist`;
    await request(stack.webUrl).get(entry).expect(200);
    const lines = logs.text();
    expect(lines).toContain('clientUrl=%5BRedacted%5D');
    expect(lines).toContain('lang=en');
    expect(lines).not.toMatch(/lindqvist|partner-7|track-42/i);
  });
});
