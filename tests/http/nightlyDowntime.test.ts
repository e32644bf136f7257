// The nightly-downtime page over HTTP (identification-routing-creation §2 "Nightly-downtime page", §9): both titles,
// the embedded and webview variants, Go to main page and Exit and where they lead, when access opens in each market
// and locale on the web's own clock, garbled queries, and no session for a page view.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { decode, h1, setCookies } from '../support/serverHttp.ts';
import { routes } from '../../shared/routes.ts';

const HOME_URL = 'https://bank.example/';
// Both buttons and the X leave through the route that ends the session, then go to HOME_URL or the app's close route.
const HOME = routes.leave();
const CLOSE = routes.leave({ webview: true });

// The web's clock: set by each test before its requests.
let clock = Date.parse('2026-11-24T01:30:00Z');
let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ HOME_URL }, { now: () => clock });
});
afterAll(async () => {
  await stack?.stop();
});

const port = () => new URL(stack.webUrl).port;

async function nightlyPage(query: string, options: { host?: string; locale?: string } = {}) {
  let req = request(stack.webUrl).get(`/onboarding/nightly-downtime-status${query}`);
  if (options.host) req = req.set('host', `${options.host}:${port()}`);
  if (options.locale) req = req.set('cookie', `locale=${options.locale}`);
  return req.expect(200);
}

/** What the page shows: title, the opening sentence and its instant, the buttons and their targets, and which chrome. */
function shown(html: string) {
  const time = /<time datetime="([^"]+)">([^<]*)<\/time>/i.exec(html);
  return {
    title: h1(html),
    // Some ICU versions put a narrow no-break space before AM: read as a space.
    opens: time ? decode(time[2]!).replace(/\u202f/g, ' ') : undefined,
    at: time?.[1],
    buttons: [...html.matchAll(/<a class="btn[^"]*" href="([^"]*)">([^<]*)<\/a>/g)].map((m) => `${decode(m[2]!)} → ${decode(m[1]!)}`),
    chrome: ['site-header', 'site-header__close', 'signup', 'panel', 'site-footer'].filter((c) => html.includes(`class="${c}"`)),
  };
}

const allChrome = ['site-header', 'site-header__close', 'signup', 'panel', 'site-footer'];

describe('the page variants', () => {
  it.each([
    { name: 'the default', query: '', title: 'See you tomorrow!', target: HOME, chrome: allChrome },
    { name: 'after signup', query: '?justCompletedSignup=true', title: "You're all set, See you tomorrow!", target: HOME, chrome: allChrome },
    {
      name: 'after signup in the webview, embedded (the creation page sends these)',
      query: `?${routes.nightlyDowntimeStatus({ justCompletedSignup: true, webview: true }).split('?')[1]}`,
      title: "You're all set, See you tomorrow!",
      target: CLOSE,
      chrome: [],
    },
    { name: 'embedded alone', query: '?embedded=true', title: 'See you tomorrow!', target: HOME, chrome: [] },
    { name: 'webview alone: the chrome, its Close X on the app route', query: '?webview=true', title: 'See you tomorrow!', target: CLOSE, chrome: allChrome },
    {
      name: 'explicit false',
      query: '?justCompletedSignup=false&embedded=false&webview=false',
      title: 'See you tomorrow!',
      target: HOME,
      chrome: allChrome,
    },
    {
      name: 'garbled flags: the defaults',
      query: '?justCompletedSignup=yes&embedded[]=true&webview=%00&webview=true',
      title: 'See you tomorrow!',
      target: HOME,
      chrome: allChrome,
    },
    {
      name: 'one garbled flag leaves the others as sent',
      query: '?justCompletedSignup=true&embedded=1&webview=true',
      title: "You're all set, See you tomorrow!",
      target: CLOSE,
      chrome: allChrome,
    },
  ])('$name', async ({ query, title, target, chrome }) => {
    clock = Date.parse('2026-11-24T01:30:00Z');
    const res = await nightlyPage(query);
    const page = shown(res.text);
    expect(page).toEqual({
      title,
      opens: 'Access opens at 6:00 AM on Tuesday, November 24.',
      at: '2026-11-24T05:00:00.000Z',
      buttons: [`Go to main page → ${target}`, `Exit → ${target}`],
      chrome,
    });
    if (chrome.includes('site-header__close')) expect(res.text).toContain(`class="site-header__close" href="${target}"`);
    // A page view stores nothing: no session, no visit cookie, no form token.
    expect(setCookies(res)).toEqual([]);
  });

  it('a journey begun in the webview (the visit cookie) ends on the app route without the query', async () => {
    const agent = request.agent(stack.webUrl);
    await agent.get('/onboarding?webview=true').expect(200);
    const res = await agent.get('/onboarding/nightly-downtime-status').expect(200);
    expect(shown(res.text).buttons).toEqual([`Go to main page → ${CLOSE}`, `Exit → ${CLOSE}`]);
    expect(setCookies(res)).toEqual([]);
  });
});

describe('when access opens, in each market and locale', () => {
  // Tuesday 24 November 2026 at 02:30 in Stockholm, Oslo and Copenhagen (03:30 in Helsinki): this morning at 06:00.
  const tuesdaySmallHours = '2026-11-24T01:30:00Z';
  // Thursday 4 June 2026 at 23:00 CEST: Friday 5 June is Grundlovsdag, a bank closing day in Denmark alone.
  const beforeGrundlovsdag = '2026-06-04T21:00:00Z';
  it.each([
    [tuesdaySmallHours, 'se', 'sv-SE', 'Inloggningen öppnar tisdag 24 november kl. 06:00.', '2026-11-24T05:00:00.000Z'],
    [tuesdaySmallHours, 'se', 'en', 'Access opens at 6:00 AM on Tuesday, November 24.', '2026-11-24T05:00:00.000Z'],
    [tuesdaySmallHours, 'no', 'nb-NO', 'Innloggingen åpner tirsdag 24. november kl. 06:00.', '2026-11-24T05:00:00.000Z'],
    [tuesdaySmallHours, 'dk', 'da-DK', 'Du kan logge ind fra tirsdag 24. november kl. 06.00.', '2026-11-24T05:00:00.000Z'],
    [tuesdaySmallHours, 'fi', 'fi-FI', 'Kirjautuminen avautuu seuraavan kerran: tiistai 24. marraskuuta klo 6.00.', '2026-11-24T04:00:00.000Z'],
    [tuesdaySmallHours, 'fi', 'sv-FI', 'Inloggningen öppnar tisdag 24 november kl. 6.00.', '2026-11-24T04:00:00.000Z'],
    [beforeGrundlovsdag, 'dk', 'da-DK', 'Du kan logge ind fra mandag 8. juni kl. 06.00.', '2026-06-08T04:00:00.000Z'],
    [beforeGrundlovsdag, 'dk', 'en', 'Access opens at 6:00 AM on Monday, June 8.', '2026-06-08T04:00:00.000Z'],
    [beforeGrundlovsdag, 'se', 'sv-SE', 'Inloggningen öppnar fredag 5 juni kl. 06:00.', '2026-06-05T04:00:00.000Z'],
    [beforeGrundlovsdag, 'fi', 'fi-FI', 'Kirjautuminen avautuu seuraavan kerran: perjantai 5. kesäkuuta klo 6.00.', '2026-06-05T03:00:00.000Z'],
  ])('at %s on the %s host in %s: %s', async (now, host, locale, opens, at) => {
    clock = Date.parse(now);
    const page = shown((await nightlyPage('?justCompletedSignup=true', { host: `${host}.localhost`, locale })).text);
    expect({ opens: page.opens, at: page.at }).toEqual({ opens, at });
  });

  it('every locale has its own title and buttons', async () => {
    clock = Date.parse(tuesdaySmallHours);
    const pages: Record<string, string[]> = {};
    for (const locale of ['en', 'sv-SE', 'sv-FI', 'nb-NO', 'da-DK', 'fi-FI']) {
      const page = shown((await nightlyPage('?justCompletedSignup=true', { locale })).text);
      pages[locale] = [page.title!, ...page.buttons.map((b) => b.split(' → ')[0]!)];
    }
    expect(pages).toEqual({
      en: ["You're all set, See you tomorrow!", 'Go to main page', 'Exit'],
      'sv-SE': ['Allt är klart – vi ses i morgon!', 'Till startsidan', 'Avsluta'],
      'sv-FI': ['Allt är klart – vi ses i morgon!', 'Till startsidan', 'Avsluta'],
      'nb-NO': ['Alt er klart – vi ses i morgen!', 'Gå til forsiden', 'Avslutt'],
      'da-DK': ['Du er klar – vi ses i morgen!', 'Gå til forsiden', 'Afslut'],
      'fi-FI': ['Kaikki on valmista – nähdään huomenna!', 'Siirry etusivulle', 'Poistu'],
    });
  });
});
