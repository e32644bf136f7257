// The stage of the islands' browser tests (tests/e2e/bankidQrIsland, creationStatusIsland, stylesheet): built bundles,
// server-rendered pages with a strict CSP, a scripted BankID status endpoint and event stream, and the system Chromium.
// `page`, `errors`, `browser`, `baseUrl` and `qrSvgs` are live bindings set by the hooks it registers.
//   import { page, errors, qrScript, useScriptedIslands } from '../support/scriptedIslands.ts';
//   useScriptedIslands();
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import QRCode from 'qrcode';
import { createElement, type ReactElement, type ReactNode } from 'react';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { renderPage, type Manifest } from '../../server/render.tsx';
import { BankidQrOrder, type BankidQrProps, type BankidQrStatus } from '../../views/components/BankidQrStatus.tsx';
import { CreationStatus, type CreationView } from '../../views/components/CreationStatus.tsx';
import { clientBuildManifest } from './clientBuild.ts';
import { collectPageErrors, launchChromium } from './browser.ts';

const root = path.resolve(import.meta.dirname, '../..');
const h = createElement;

// --- Scripted server ----------------------------------------------------------------------------

const qr = async (data: string) => QRCode.toString(data, { type: 'svg', errorCorrectionLevel: 'Q' });
export const qrPath = (svg: string) => /stroke="#000000" d="([^"]+)"/.exec(svg)![1];

let manifest: Manifest;
let server: Server;
export let baseUrl: string;
export let qrSvgs: string[];

/** What GET /qr/status answers; `failures` requests fail first (HTTP 500, then a dropped connection). */
export const qrScript = { status: null as BankidQrStatus | null, failures: 0, requests: 0, accept: [] as (string | undefined)[] };
let initialQr: BankidQrProps;

export const views = {
  pending: {
    outcome: 'queued',
    title: 'Please wait...',
    body: 'Your account is being created. Do not close the browser.',
    tone: 'pending',
    spinner: true,
    action: null,
    redirectTo: null,
  },
  stillPending: { outcome: 'queued', title: 'Still working', body: 'This can take a minute.', tone: 'pending', spinner: true, action: null, redirectTo: null },
  done: {
    outcome: 'done',
    title: 'Your account is ready',
    body: 'Taking you onwards.',
    tone: 'success',
    spinner: false,
    action: { kind: 'link', url: '/welcome', label: 'Continue' },
    redirectTo: '/welcome',
  },
  /** The done screen as the server sends it: Continue posts, "Start using the app" beside it, no move of its own. */
  doneToChoose: {
    outcome: 'done',
    title: 'Agreements signed',
    body: 'Choose where to go on.',
    tone: 'success',
    spinner: false,
    action: { kind: 'post', url: '/creation/continue', label: 'Continue' },
    appLink: { url: '/app', label: 'Start using the app' },
    redirectTo: null,
  },
  error: {
    outcome: 'unspecifiedApiResponseError',
    title: 'Something went wrong',
    body: 'Please try again.',
    tone: 'error',
    spinner: false,
    action: { kind: 'post', url: '/creation/retry', label: 'Try again' },
    redirectTo: null,
  },
} satisfies Record<string, CreationView>;

/** What the creation event stream sends; the file that tests it owns the script. */
export interface CreationScript {
  /** Events per SSE connection (in order); a connection after the last script gets nothing. */
  events(): CreationView[][];
  /** The stream holds its events until this resolves (lets a test look at the page before they arrive). */
  gate(): Promise<void>;
}
let creation: CreationScript = { events: () => [], gate: () => Promise.resolve() };
export const sse = { connections: 0, lastEventIds: [] as (string | undefined)[], doneSentAt: 0, welcomeAt: 0 };

function shell(children: ReactNode): ReactElement {
  // The documented shell classes, so axe checks the stylesheet's contrast on them too.
  return h(
    'div',
    { className: 'page' },
    h('header', { className: 'site-header' }, h('a', { className: 'site-header__logo', href: '/', 'aria-label': 'Home' }, '◆')),
    h(
      'nav',
      { 'aria-label': 'Progress' },
      h(
        'ol',
        { className: 'progress' },
        h('li', { className: 'progress__step progress__step--done' }, h('span', null, 'Identification')),
        h('li', { className: 'progress__step progress__step--current', 'aria-current': 'step' }, h('span', null, 'Customer information')),
        h('li', { className: 'progress__step progress__step--upcoming' }, h('span', null, 'Customer creation')),
      ),
    ),
    h('main', { id: 'main', className: 'content' }, children),
    h('aside', { className: 'panel', 'aria-label': 'Disclaimer' }, h('p', null, 'Investing involves risk.')),
    h('footer', { className: 'site-footer' }, h('p', null, 'Support: 08-123 456'), h('p', null, h('a', { href: '/faq' }, 'FAQ'))),
  );
}

function send(res: express.Response, body: ReactElement, noscriptRefreshSeconds?: number) {
  const html = renderPage({
    manifest,
    nonce: res.locals.nonce as string,
    locale: 'en',
    title: 'Onboarding',
    canonicalUrl: `${baseUrl}/onboarding`,
    noscriptRefreshSeconds,
    body: shell(body),
  });
  res.type('html').send(html);
}

function createApp() {
  const app = express();
  // Same policy shape as server/security.ts: any inline script or style would show up as a console error.
  app.use((_req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.nonce = nonce;
    res.set(
      'content-security-policy',
      `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'`,
    );
    next();
  });
  app.use(express.static(path.join(root, 'public')));
  app.get('/favicon.ico', (_req, res) => res.status(204).end());

  app.get('/qr', (_req, res) => {
    send(res, h('div', null, h('h1', null, 'Open account with BankID'), h(BankidQrOrder, { qr: initialQr })), 2);
  });
  app.get('/qr/status', (req, res) => {
    qrScript.requests++;
    qrScript.accept.push(req.get('accept'));
    if (qrScript.failures > 0) {
      qrScript.failures--;
      if (qrScript.failures % 2 === 1) res.status(500).json({ error: 'boom' });
      else req.socket.destroy();
      return;
    }
    res.set('cache-control', 'no-store').json(qrScript.status);
  });
  app.post('/qr/retry', (_req, res) => res.redirect(303, '/done'));
  app.get('/done', (_req, res) => send(res, h('h1', null, 'Identified')));

  app.get('/creation', (_req, res) => {
    send(res, h(CreationStatus, { eventsUrl: '/creation/events', view: views.pending }), 2);
  });
  app.get('/creation/events', async (req, res) => {
    const connection = ++sse.connections;
    const script = creation.events()[connection - 1] ?? [];
    sse.lastEventIds.push(req.get('last-event-id'));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    // A short reconnection delay so the test doesn't wait the browser's default 3 s.
    res.write('retry: 200\n\n');
    let id = Number(req.get('last-event-id') ?? 0);
    let timers: NodeJS.Timeout[] = [];
    let closed = false;
    res.on('close', () => {
      closed = true;
      timers.forEach(clearTimeout);
    });
    await creation.gate();
    if (closed) return;
    timers = script.map((view, i) =>
      setTimeout(
        () => {
          if (view.redirectTo) sse.doneSentAt = Date.now();
          res.write(`id: ${++id}\nevent: creation\ndata: ${JSON.stringify(view)}\n\n`);
          // The first connection drops after its events: the browser must reconnect on its own.
          if (connection === 1 && i === script.length - 1) res.end();
        },
        300 * (i + 1),
      ),
    );
  });
  // Every documented class once, so axe checks the stylesheet (contrast, names) beyond the islands.
  app.get('/styles', (_req, res) => {
    send(
      res,
      h(
        'div',
        null,
        h('h1', null, 'Before we get started'),
        h(
          'form',
          { method: 'post', action: '/done', className: 'card-grid' },
          h(
            'button',
            { type: 'submit', className: 'card', name: 'type', value: 'private' },
            h('span', { className: 'card__title' }, 'Private'),
            h('span', { className: 'card__text' }, 'For yourself'),
          ),
          h(
            'a',
            { className: 'card', href: '/done' },
            h('span', { className: 'card__title' }, 'Business'),
            h('span', { className: 'card__text' }, 'For a company'),
          ),
        ),
        h('div', { className: 'error-summary', role: 'alert' }, h('p', null, 'There is a problem'), h('a', { href: '#zip' }, 'Enter a zip code')),
        h(
          'div',
          { className: 'field' },
          h('label', { htmlFor: 'zip' }, 'Zip code'),
          h('p', { className: 'field__hint', id: 'zip-hint' }, 'Five digits'),
          h('p', { className: 'field__error', id: 'zip-error' }, 'Enter a zip code'),
          h('input', { id: 'zip', name: 'zip', 'aria-invalid': true, 'aria-describedby': 'zip-hint zip-error' }),
        ),
        ...[
          { id: 'isk', title: 'Investment savings account', locked: true },
          { id: 'sav', title: 'Savings account', locked: false },
        ].map((a) =>
          h(
            'div',
            { key: a.id, className: `checkbox-card${a.locked ? ' checkbox-card--locked' : ''}` },
            h('input', {
              type: 'checkbox',
              id: a.id,
              name: 'accounts',
              value: a.id,
              defaultChecked: a.locked,
              disabled: a.locked,
              'aria-describedby': `${a.id}-text`,
            }),
            h(
              'label',
              { htmlFor: a.id },
              h('span', { className: 'checkbox-card__title' }, a.title),
              h('span', { className: 'badge' }, a.locked ? 'Mandatory' : 'Popular'),
            ),
            h('p', { className: 'checkbox-card__text', id: `${a.id}-text` }, 'No tax on gains'),
          ),
        ),
        ...(['', ' banner--warning', ' banner--error', ' banner--success'] as const).map((m) =>
          h('div', { key: m, className: `banner${m}`, role: 'note' }, h('p', null, `Notice${m}`)),
        ),
        h('p', { className: 'spinner-text' }, h('span', { className: 'spinner', 'aria-hidden': true }), 'Signing in'),
        h(
          'p',
          { className: 'actions' },
          h('a', { className: 'btn', href: '/done' }, 'Continue'),
          h('a', { className: 'btn btn-secondary', href: '/' }, 'Go back'),
        ),
        h('button', { type: 'button', className: 'btn', disabled: true }, 'Disabled'),
      ),
    );
  });
  app.post('/creation/retry', (_req, res) => res.redirect(303, '/creation'));
  app.get('/welcome', (_req, res) => {
    sse.welcomeAt = Date.now();
    send(res, h('h1', null, 'Welcome'));
  });
  return app;
}

// --- Test lifecycle ---------------------------------------------------------------------------------

export let browser: Browser;
export let page: Page;
export let errors: string[];

/** Starts the scripted server and Chromium for the file's tests, and gives each test a fresh page and scripts. */
export function useScriptedIslands(script?: CreationScript): void {
  if (script) creation = script;
  beforeAll(async () => {
    manifest = clientBuildManifest();
    qrSvgs = await Promise.all(['bankid.qr.1', 'bankid.qr.2'].map(qr));
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  beforeEach(async () => {
    const context = await browser.newContext({ baseURL: baseUrl });
    page = await context.newPage();
    errors = collectPageErrors(page);
    initialQr = {
      statusUrl: '/qr/status',
      pollMs: 100,
      qrSvg: qrSvgs[0]!,
      message: 'Start your BankID app and scan the QR code.',
      state: 'pending',
      retry: null,
      labels: { qrAlt: 'QR code to scan with the BankID app', signingIn: 'Signing in' },
      showSpinner: false,
    };
    Object.assign(qrScript, { status: null, failures: 0, requests: 0, accept: [] });
    Object.assign(sse, { connections: 0, lastEventIds: [], doneSentAt: 0, welcomeAt: 0 });
  });

  afterEach(async () => {
    await page.context().close();
  });
}

/** The text of the page's polite live region, white space folded. */
export const liveText = async () => (await page.locator('[aria-live="polite"]').innerText()).replace(/\s+/g, ' ').trim();
/** The page runs no script (it was left for a server-rendered one, or never had islands). */
export const noScripts = async () => expect(await page.locator('script').count()).toBe(0);
