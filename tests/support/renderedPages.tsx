// A customer-information page rendered as the server sends it, served to Chromium at a made-up origin with the built
// assets from public/ (tests/e2e/complianceDialogs, dialogScript): the page shell, the step header (Back, Exit and its
// abort modal), `body` as the step's view and the FAQ panel.
//   const stage = renderedPagesStage();   // at the file's top level
//   const { page } = await openRendered(stage.browser, customerInformationPage(stage.manifest, <MyView />), '/path');
import path from 'node:path';
import type { ReactElement } from 'react';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { renderPage, type Manifest } from '../../server/render.tsx';
import { createI18n, loadCatalogues } from '../../server/catalogues.ts';
import { MAX_USP_ITEMS, signupImageFor, visibleUsps } from '../../shared/shell.ts';
import { Layout } from '../../views/Layout.tsx';
import { StepHeaderBar } from '../../views/pages/CustomerInformationPageView.tsx';
import { FaqPanel } from '../../views/components/FaqPanel.tsx';
import { collectPageErrors, launchChromium } from './browser.ts';
import { clientBuildManifest } from './clientBuild.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const ORIGIN = 'http://bank.test';
export const BASE = `${ORIGIN}/onboarding/customer-information/p-1`;
export const t = createI18n(loadCatalogues()).translator('en');

/** A test file's stage: the client build and Chromium, from its beforeAll on, closed in its afterAll. */
export function renderedPagesStage(): { readonly manifest: Manifest; readonly browser: Browser } {
  const stage = {} as { manifest: Manifest; browser: Browser };
  beforeAll(async () => {
    stage.manifest = clientBuildManifest();
    stage.browser = await launchChromium();
  });
  afterAll(async () => {
    await stage.browser?.close();
  });
  return stage;
}

/** The page as server/stages/customerInformation/customerInformationPage.tsx sends it, with `body` as the step's view. */
export function customerInformationPage(manifest: Manifest, body: ReactElement): string {
  const shell = {
    t,
    supportPhone: '+46 8 123 456 00',
    faqUrl: `${ORIGIN}/faq`,
    homeUrl: '/',
    closeUrl: '/',
    signupImage: signupImageFor(undefined),
    usps: visibleUsps(Array.from({ length: MAX_USP_ITEMS }, (_, i) => t(`shell.usp.${i + 1}`))),
  };
  const header = { backAction: `${BASE}/back`, exitUrl: `${BASE}/exit`, continueUrl: BASE, progressPercent: 40 };
  return renderPage({
    manifest,
    nonce: 'n0nce',
    locale: 'en',
    title: t('meta.title'),
    description: t('meta.description'),
    canonicalUrl: `${ORIGIN}/onboarding`,
    body: (
      <Layout shell={shell} progress={2}>
        <StepHeaderBar t={t} header={header} />
        <div className="step">{body}</div>
        <FaqPanel t={t} faqUrl={shell.faqUrl} country="SE" />
      </Layout>
    ),
  });
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  javaScriptEnabled?: boolean;
  /** Answers any other request to our origin (default: 404). */
  other?: (route: Route) => Promise<void>;
}

/** A page in Chromium serving the rendered HTML at `pathname`, and the built assets from public/. */
export async function openRendered(browser: Browser, html: string, pathname: string, options: OpenOptions = {}): Promise<{ page: Page; errors: string[] }> {
  // axe needs a page of its own context.
  const context = await browser.newContext({
    ...(options.viewport ? { viewport: options.viewport } : {}),
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === pathname && route.request().method() === 'GET')
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    if (/^\/(build|images)\/[\w.-]+$/.test(url.pathname)) return route.fulfill({ path: path.join(root, 'public', url.pathname) });
    return options.other ? options.other(route) : route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${ORIGIN}${pathname}`);
  return { page, errors };
}
