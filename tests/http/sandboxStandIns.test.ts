// Under `npm start` the links that leave the journey in production (log in, FAQ, privacy, the overview after
// creation) lead to the sandbox's own stand-in pages, each saying what would be there (issue 18, deliverable 6).
// Before: log in, FAQ and privacy were relative paths of the web (/login-next, /faq, /privacy), which lead
// back to the start page.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { devServerLinks } from '../../sandbox/devLinks.ts';
import { loadConfig } from '../../server/config.ts';

const SANDBOX = 'http://127.0.0.1:3001';

describe('npm start: the external links lead to the sandbox’s stand-in pages', () => {
  const links = devServerLinks(SANDBOX);
  const config = loadConfig({ ...links, NODE_ENV: 'development' });

  it.each([
    ['LOGIN_URL', 'Log in', /log-in page/],
    ['FAQ_URL', 'Frequently asked questions', /help centre/],
    ['PRIVACY_URL', 'Privacy', /privacy notice/],
    ['SUCCESS_URL', 'You are logged in', /overview page/],
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
