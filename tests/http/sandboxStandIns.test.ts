// Under `npm start` the links that leave the journey in production (log in, FAQ, privacy, the overview after
// creation, the public site's home behind the logo and ×) lead to the sandbox's own stand-in pages, each saying what
// would be there. Before, log in, FAQ and privacy were relative paths of the web (/login-next, /faq, /privacy), which
// led back to the start page.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { devServerLinks } from '../../sandbox/devLinks.ts';
import { loadConfig } from '../../server/config.ts';
import { startEmbeddedStack } from '../support/stack.ts';

const SANDBOX = 'http://127.0.0.1:3001';

describe('npm start: the external links lead to the sandbox’s stand-in pages', () => {
  const links = devServerLinks(SANDBOX);
  const config = loadConfig({ ...links, NODE_ENV: 'development' });

  it.each([
    ['HOME_URL', 'Home page', /public website/],
    ['LOGIN_URL', 'Log in', /log-in page/],
    ['FAQ_URL', 'Frequently asked questions', /help centre/],
    ['PRIVACY_URL', 'Privacy', /privacy notice/],
    ['APP_URL', 'The app', /universal link that opens/],
    ['SUCCESS_URL', 'Overview', /overview page/],
    ['GET_STARTED_URL', 'Get started', /get-started page/],
  ] as const)('%s: the sandbox page "%s" says what would be there', async (name, title, text) => {
    const target = new URL(String(config[name]));
    expect(target.origin).toBe(SANDBOX);
    const page = await request(createSandboxApp({ publicUrl: SANDBOX }))
      .get(target.pathname)
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(page.text).toContain(`<h1>${title}</h1>`);
    expect(page.text).toMatch(text);
  });
});

describe('the logo and × lead to the public site’s home (HOME_URL)', () => {
  it('the start page links both to the configured home, not to the journey’s own / (which redirects to the start)', async () => {
    const home = 'http://127.0.0.1:9/sandbox/home';
    const stack = await startEmbeddedStack({ HOME_URL: home });
    try {
      const page = (await request(stack.webUrl).get('/onboarding?lang=en').expect(200)).text;
      expect(page).toMatch(new RegExp(`<a class="site-header__logo" href="${home}"`));
      // The × ends the session on its way to the home (routes.leave).
      expect(page).toMatch(/<a class="site-header__close" href="\/onboarding\/leave"/);
      expect((await request(stack.webUrl).get('/onboarding/leave').expect(303)).headers.location).toBe(home);
    } finally {
      await stack.stop();
    }
  });
});
