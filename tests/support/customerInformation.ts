// Walking the customer-information page in tests, whatever steps the prospect has: each implemented
// step has one answer: a browser filler here and an HTTP form body in httpAnswers.ts (which `npm run bench` also
// walks with), so adding a step to the journey means adding its entries there, and every journey test keeps working.
import type { Page } from 'playwright-core';
import type { Test } from 'supertest';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import request from 'supertest';
import { expect } from 'vitest';
import { evaluateSettled } from './browser.ts';
import { identifyAtBrokerOverHttp, identifyOverHttp, personaFor, postStep, type Persona } from './journey.ts';
import { PEP_YES } from '../../shared/contracts/kycContract.ts';
import { RESIDENCY_DIALOG, answerStepsOverHttp, residencyAddress, residencyAnswers, residencyDocument, screenOf } from './httpAnswers.ts';
import { agentCookies } from './agentCookies.ts';

export { answerStepsOverHttp, httpAnswerOf, httpAnswers, screenOf, withScreen, type HttpAnswer, type MultipartAnswer } from './httpAnswers.ts';

/** Answers the shown screen of a step in the browser and submits it (one form post). */
export type BrowserAnswer = (page: Page, screen: string) => Promise<void>;

export const browserAnswers: Partial<Record<StepId, BrowserAnswer>> = {
  MILESTONE_ONE_STEP: (page) => page.getByRole('button', { name: 'Start' }).click(),
  ACCOUNT_PICKER_STEP: (page) => page.getByRole('button', { name: 'Continue' }).click(),
  // The default names, as shown.
  ACCOUNT_ALIAS_STEP: (page) => page.getByRole('button', { name: 'Continue', exact: true }).click(),
  MILESTONE_TWO_STEP: (page) => page.getByRole('button', { name: 'Continue' }).click(),
  // Typed internationally, so the answer fits whatever prefix the market preselects.
  CONTACT_INFORMATION_STEP: async (page) => {
    await page.getByLabel('Mobile phone number').fill('+46 70 123 45 67');
    await page.getByLabel('Email').fill('test@example.com');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  },
  // Only a citizen of the market's country: submits an empty list and finishes the step.
  CITIZENSHIP_STEP: async (page) => {
    await page.getByRole('radio', { name: /I am only a citizen of/ }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  },
  // The RESIDENCY dialog (a modal over the address with JavaScript, the screen itself without), address,
  // answers, one document.
  RESIDENCY_STEP: async (page, screen) => {
    const scripted = await page.evaluate(() => matchMedia('(scripting: enabled)').matches);
    if (screen === 'dialog' && !scripted) return page.locator('#residency-dialog-screen').getByRole('button', { name: 'Continue' }).click();
    if (screen === 'dialog' || screen === 'address') {
      if (screen === 'dialog') await page.getByRole('dialog', { name: RESIDENCY_DIALOG }).getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Country', { exact: true }).selectOption(residencyAddress.addressCountry);
      await page.getByLabel('Address', { exact: true }).fill(residencyAddress.address);
      await page.getByLabel('Zip code', { exact: true }).fill(residencyAddress.zipCode);
      await page.getByLabel('City', { exact: true }).fill(residencyAddress.city);
      return page.getByRole('button', { name: 'Continue', exact: true }).click();
    }
    if (screen === 'questions') {
      await page.getByLabel('What is the purpose of your application?').fill(residencyAnswers.applicationPurpose);
      await page.getByLabel('Why do you live abroad?').fill(residencyAnswers.reasonForLivingAbroad);
      await page.getByLabel('How long have you lived abroad, and how long do you plan to stay?').fill(residencyAnswers.durationAbroad);
      return page.getByRole('button', { name: 'Continue', exact: true }).click();
    }
    if ((await page.locator('.file-list').count()) === 0) {
      const { name, contentType, bytes } = residencyDocument();
      // With JavaScript choosing the file uploads it; without, the form's button does.
      await page.getByLabel('Document showing your address').setInputFiles({ name, mimeType: contentType, buffer: bytes });
      if (!scripted) await page.getByRole('button', { name: 'Upload file' }).click();
      return;
    }
    return page.getByRole('button', { name: 'Continue', exact: true }).click();
  },

  KYC_STEP: answerKycInBrowser,

  // Only liable for tax at home (the market's country). With the address at home that submits at once; with
  // an address abroad (after the residency step) it opens the FATCA dialog, whose attest resets the answer to
  // home only and submits: a modal with JavaScript, its own screen (the next screen of the walk) without.
  TAX_INFO_STEP: async (page) => {
    const screen = page.locator('section#fatca-dialog');
    if ((await screen.count()) > 0) return screen.getByRole('button', { name: /^I am only liable for tax in/ }).click();
    await page.locator('label[for="tax-liability-inOffice"]').click();
    const modal = page.locator('dialog#fatca-dialog[open]');
    // Both watches start before the click, so neither the post's load nor the modal can be missed.
    const outcome = Promise.race([
      page.waitForEvent('load', { timeout: 15_000 }).then(() => 'posted' as const),
      modal.waitFor({ state: 'visible', timeout: 15_000 }).then(() => 'modal' as const),
    ]);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    if ((await outcome) === 'modal') await modal.getByRole('button', { name: /^I am only liable for tax in/ }).click();
  },
};

/**
 * The KYC questionnaire in the browser (the walker waits out its loader): each page answers its first
 * option (PEP: no, 223). With JavaScript a single-choice
 * answer advances at once; a multiple-choice page, and every page without JavaScript, takes Continue.
 */
async function answerKycInBrowser(page: Page, screen: string): Promise<void> {
  if (screen === 'pep') return page.locator('section#pep-dialog-screen').getByRole('button', { name: 'I am not a politically exposed person' }).click();
  const scripted = await page.evaluate(() => matchMedia('(scripting: enabled)').matches);
  const question = page.locator('.kyc-question').first();
  const select = question.locator('select');
  if ((await select.count()) > 0) {
    const value = await select.locator('option:not([value=""])').first().getAttribute('value');
    await select.selectOption(value!);
    if (!scripted) await page.getByRole('button', { name: 'Continue', exact: true }).click();
    return;
  }
  const multiple = (await question.locator('input[type="checkbox"]').count()) > 0;
  const first = question.locator(`input:not([value="${PEP_YES}"])`).first();
  await page.locator(`label[for="${await first.getAttribute('id')}"]`).click();
  if (!scripted || multiple) await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

export async function currentStep(page: Page): Promise<{ step: StepId; screen: string }> {
  await page.locator('[data-step]').waitFor();
  // Both read at once: a loader reloading between two reads would pair one page's step with the next's screen.
  const shown = await evaluateSettled(page, () => {
    const el = document.querySelector<HTMLElement>('[data-step]');
    return el ? { step: el.dataset.step ?? '', screen: el.dataset.screen ?? '' } : null;
  });
  if (!shown) return currentStep(page);
  return { step: shown.step as StepId, screen: shown.screen };
}

/**
 * Answers every step up to milestone three (which is left for the test to submit). `onScreen` runs on
 * every screen first (axe checks, assertions).
 */
export async function walkToMilestoneThree(page: Page, onScreen?: (step: StepId, screen: string) => Promise<void>): Promise<void> {
  for (let screens = 0; screens < 100; screens++) {
    const { step, screen } = await currentStep(page);
    if (step === 'MILESTONE_THREE_STEP') return;
    if (screen === 'loader') {
      // A loader has nothing to answer and goes by itself (its island reloads the page, or the page
      // refreshes itself without JavaScript): wait for what follows. axe checks it where it is held up
      // (tests/e2e/kyc.test.ts), not here where it may reload under the check.
      await page.locator('[data-step]:not([data-screen="loader"])').waitFor({ timeout: 30_000 });
      screens--;
      continue;
    }
    await onScreen?.(step, screen);
    const answer = browserAnswers[step];
    if (!answer) throw new Error(`No browser answer for ${step} in tests/support/customerInformation.ts`);
    const before = page.url();
    await Promise.all([page.waitForEvent('load'), answer(page, screen)]).catch(async (err: Error) => {
      throw new Error(`answering ${step} ${screen} ("${await page.locator('h1, h2').first().textContent()}"): ${err.message}`, { cause: err });
    });
    if (page.url() !== before && !page.url().includes('/onboarding/customer-information/')) throw new Error(`left the page at ${step}: ${page.url()}`);
  }
  throw new Error('customer-information walk did not reach milestone three');
}

/**
 * A citizenship proof upload as the no-JS form of the `proof` screen posts it (multipart to the step route,
 * field `file`, the country as the slot), on a post the caller started (an agent's, or one with a cookie of
 * its own): `agent.post(`${page}/step`)`.
 */
export function citizenshipProofUpload(post: Test, file: { country: string; bytes: Buffer; name: string; type?: string }): Test {
  return post
    .set('sec-fetch-site', 'same-origin')
    .field('step', 'CITIZENSHIP_STEP')
    .field('screen', 'proof')
    .field('slot', file.country)
    .field('intent', 'upload')
    .attach('file', file.bytes, { filename: file.name, contentType: file.type ?? 'application/pdf' });
}

/** Every step of `page` answered over HTTP up to milestone three (left for the caller to submit). */
async function answerToMilestoneThree(agent: ReturnType<typeof request.agent>, page: string): Promise<void> {
  await answerStepsOverHttp(
    async () => (await agent.get(page)).text,
    async (body) => void (await postStep(agent, page, body).expect(303)),
  );
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
}

/** GETs the customer-information page until it shows something other than the KYC loader (the worker's wait). */
export async function pastKycLoader(agent: ReturnType<typeof request.agent>, page: string): Promise<{ html: string; shown: [string, string] }> {
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await agent.get(page);
    const shown = screenOf(res.text);
    if (!shown) throw new Error(`no step on the page (${res.status})`);
    if (shown[1] !== 'loader' || shown[0] !== 'KYC_STEP') return { html: res.text, shown };
    if (Date.now() > until) throw new Error('still on the KYC loader after 20 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Identified as the persona over HTTP, every step answered up to milestone three (tests/support/customerInformation.ts). */
export async function atMilestoneThreeOverHttp(agent: ReturnType<typeof request.agent>, sandboxUrl: string, scenario: string): Promise<string> {
  const { page } = await identifyOverHttp(agent, sandboxUrl, scenario);
  await answerToMilestoneThree(agent, page);
  return page;
}

/**
 * Identified over HTTP on `webUrl` as the scenario's persona, every step answered and the agreements signed in the
 * sandbox: customer creation starts when `agent` opens the creation page. `identified` sees the identification
 * under way (to act while it waits on the eID).
 */
export async function signOverHttp(
  webUrl: string,
  sandboxUrl: string,
  scenario: string,
  identified?: (ready: Promise<unknown>) => void,
): Promise<{ agent: ReturnType<typeof request.agent>; page: string; prospectId: string; persona: Persona }> {
  const agent = request.agent(webUrl);
  const identification = identifyOverHttp(agent, sandboxUrl, scenario);
  identified?.(identification.catch(() => undefined));
  const { page, prospectId, persona } = await identification;
  await answerToMilestoneThree(agent, page);
  const toSigning = await postStep(agent, page, 'step=MILESTONE_THREE_STEP&screen=milestone').expect(303);
  await request(sandboxUrl)
    .post(`${new URL(toSigning.headers.location as string).pathname}/sign`)
    .expect(303);
  return { agent, page, prospectId, persona };
}

/**
 * `signOverHttp` in a market: SE on the default host with BankID, NO, DK and FI on their own host (COUNTRY_HOSTS,
 * `<market>.localhost`) through the sandbox broker; `entry` is the first page (e.g. with ?webview=true). Answers the
 * session's cookies, for a browser to carry on as the person on the market's host.
 */
export async function signInMarketOverHttp(
  webUrl: string,
  sandboxUrl: string,
  country: 'SE' | 'NO' | 'DK' | 'FI',
  { scenario = 'onboarding', entry = '/onboarding' }: { scenario?: string; entry?: string } = {},
): Promise<{ prospectId: string; persona: Persona; cookies: Array<{ name: string; value: string }> }> {
  const agent = request.agent(webUrl);
  const host = country === 'SE' ? new URL(webUrl).host : `${country.toLowerCase()}.localhost:${new URL(webUrl).port}`;
  const get = (path: string) => agent.get(path).set('host', host);
  const post = (path: string, body: string) => agent.post(path).set('host', host).set('sec-fetch-site', 'same-origin').type('form').send(body);
  await get(entry).expect(200);
  let page: string;
  let persona: Persona;
  if (country === 'SE') {
    ({ page, persona } = await identifyOverHttp(agent, sandboxUrl, scenario));
  } else {
    persona = await personaFor(sandboxUrl, scenario, country);
    await post('/onboarding/customer-type', 'customerType=private').expect(303);
    const start = await post('/onboarding/identification/oidc', '').expect(303);
    const back = await identifyAtBrokerOverHttp(sandboxUrl, start.headers.location as string, persona.nationalId);
    await get((await get(back.pathname + back.search).expect(302)).headers.location as string).expect(303);
    page = (await get('/onboarding/routing').expect(303)).headers.location as string;
  }
  await answerStepsOverHttp(
    async () => (await get(page)).text,
    async (body) => void (await post(`${page}/step`, body).expect(303)),
  );
  const toSigning = await post(`${page}/step`, 'step=MILESTONE_THREE_STEP&screen=milestone').expect(303);
  await request(sandboxUrl)
    .post(`${new URL(toSigning.headers.location as string).pathname}/sign`)
    .expect(303);
  const prospectId = decodeURIComponent(page.split('/').pop()!);
  return { prospectId, persona, cookies: agentCookies(agent, webUrl).map(({ name, value }) => ({ name, value })) };
}
