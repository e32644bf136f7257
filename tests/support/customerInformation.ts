// Walking the customer-information page in tests, whatever steps the prospect has: each implemented
// step has one answer here (a browser filler and an HTTP form body), so adding a step to the journey
// means adding its entry here, and every journey test keeps working.
import type { Page } from 'playwright-core';
import type { Test } from 'supertest';
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import request from 'supertest';
import { expect } from 'vitest';
import { samplePng } from './files.ts';
import { evaluateSettled } from './browser.ts';
import { identifyOverHttp, postStep, type Persona } from './journey.ts';
import { PEP_NO, PEP_YES } from '../../shared/contracts/kycContract.ts';

/** Answers the shown screen of a step in the browser and submits it (one form post). */
export type BrowserAnswer = (page: Page, screen: string) => Promise<void>;
/** A file upload post (multipart): the text fields and the file (field `file`). */
export interface MultipartAnswer {
  fields: Record<string, string>;
  file: { name: string; contentType: string; bytes: Buffer };
}
/**
 * The urlencoded body answering a screen, given the page's HTML; or, for an upload, a multipart post; or
 * null for a screen with nothing to answer (a loader: look again). The walker adds the shown screen's
 * hidden `screen` field when the answer does not name one.
 */
export type HttpAnswer = (screen: string, html: string) => string | MultipartAnswer | null;

// The residency step (a person living abroad): an address in Germany (abroad for every market), three
// answers, one document.
const RESIDENCY_DIALOG = 'We need more information because you live abroad';
const residencyAddress = { addressCountry: 'DE', address: 'Invalidenstraße 1', zipCode: '10115', city: 'Berlin' };
const residencyAnswers = {
  applicationPurpose: 'Saving for retirement',
  reasonForLivingAbroad: 'I work in Berlin',
  durationAbroad: 'Three years so far, two more planned',
};
const residencyDocument = () => ({ name: 'address.png', contentType: 'image/png', bytes: samplePng() });

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

/** The KYC questionnaire over HTTP: each page's first option (PEP: no); a loader has nothing to post. */
function answerKycOverHttp(screen: string, html: string): string | null {
  if (screen === 'loader') return null;
  if (screen === 'pep') return 'step=KYC_STEP&screen=pep';
  const kycPage = /name="kycPage" value="([^"]+)"/.exec(html)?.[1];
  if (!kycPage) throw new Error('a KYC question page without its kycPage field');
  const fields = new URLSearchParams({ step: 'KYC_STEP', screen: 'question', kycPage });
  const names = new Set([...html.matchAll(/name="(answer-\d+)"/g)].map((m) => m[1]!));
  for (const name of names) {
    // A dropdown's options, or the radios' and checkboxes' values.
    const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1];
    const found = select ? select.matchAll(/<option value="(\d+)"/g) : html.matchAll(new RegExp(`name="${name}"[^>]*value="(\\d+)"`, 'g'));
    const values = [...found].map((m) => Number(m[1]));
    const choice = values.includes(PEP_NO) ? PEP_NO : values.find((v) => v !== PEP_YES);
    if (choice === undefined) throw new Error(`no answer to choose for ${name}`);
    fields.append(name, String(choice));
  }
  return fields.toString();
}

export const httpAnswers: Partial<Record<StepId, HttpAnswer>> = {
  MILESTONE_ONE_STEP: () => 'step=MILESTONE_ONE_STEP',
  ACCOUNT_PICKER_STEP: (_sub, html) => {
    // Whatever the page ticks by default (the country's defaults).
    const ticked = [...html.matchAll(/<input(?=[^>]*name="accounts")(?=[^>]*checked)[^>]*value="([A-Z_]+)"/g)].map((m) => m[1]);
    return ['step=ACCOUNT_PICKER_STEP', ...ticked.map((a) => `accounts=${a}`)].join('&');
  },
  // Skip posts the names shown (the default names).
  ACCOUNT_ALIAS_STEP: () => 'step=ACCOUNT_ALIAS_STEP&intent=skip',
  MILESTONE_TWO_STEP: () => 'step=MILESTONE_TWO_STEP',
  CITIZENSHIP_STEP: () => 'step=CITIZENSHIP_STEP&intent=choose&choice=inOfficeCitizenship',
  CONTACT_INFORMATION_STEP: () => 'step=CONTACT_INFORMATION_STEP&phonePrefix=46&phone=%2B46%2070%20123%2045%2067&email=test%40example.com',
  // Home only; with an address abroad that shows the FATCA screen, answered by attesting.
  TAX_INFO_STEP: (screen) => (screen === 'fatca' ? 'step=TAX_INFO_STEP&intent=attest' : 'step=TAX_INFO_STEP&screen=liability&liability=inOffice'),
  // Every body names its screen, so callers other than the walker can post it as it is.
  RESIDENCY_STEP: (screen, html) => {
    const form = (name: string, fields: Record<string, string> = {}) => new URLSearchParams({ step: 'RESIDENCY_STEP', screen: name, ...fields }).toString();
    if (screen === 'dialog') return form('dialog');
    if (screen === 'address') return form('address', residencyAddress);
    if (screen === 'questions') return form('questions', residencyAnswers);
    if (!html.includes('class="file-list"'))
      return { fields: { step: 'RESIDENCY_STEP', screen: 'documents', intent: 'upload', slot: 'proofOfAddress' }, file: residencyDocument() };
    return form('documents', { intent: 'finish' });
  },
  KYC_STEP: answerKycOverHttp,
};

/** An answer as the page's form posts it: with the shown screen's hidden `screen` field, unless the answer names one. */
export function withScreen(screen: string, body: string | MultipartAnswer): string | MultipartAnswer;
export function withScreen(screen: string, body: string | MultipartAnswer | null): string | MultipartAnswer | null;
export function withScreen(screen: string, body: string | MultipartAnswer | null): string | MultipartAnswer | null {
  if (body === null) return null;
  if (typeof body === 'string') return /(^|&)screen=/.test(body) ? body : `${body}&screen=${screen}`;
  return { ...body, fields: { screen, ...body.fields } };
}

/** The HTTP answer of the screen a customer-information page's HTML shows, with its `screen` field. */
export function httpAnswerOf(step: StepId, screen: string, html: string): string | MultipartAnswer {
  const answer = httpAnswers[step];
  if (!answer) throw new Error(`No HTTP answer for ${step} in tests/support/customerInformation.ts`);
  const body = withScreen(screen, answer(screen, html));
  if (body === null) throw new Error(`${step} ${screen} has nothing to post (a loader)`);
  return body;
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

/** The step and screen a customer-information page's HTML shows. */
export function screenOf(html: string): [step: string, screen: string] | undefined {
  const match = /data-step="([A-Z_]+)" data-screen="([A-Za-z]+)"/.exec(html);
  return match ? [match[1]!, match[2]!] : undefined;
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
 * The same over HTTP: `get` answers the page's HTML, `post` posts a urlencoded body to its /step and
 * `postMultipart` an upload (needed only for steps that upload, e.g. residency).
 */
export async function answerStepsOverHttp(
  get: () => Promise<string>,
  post: (body: string) => Promise<void>,
  postMultipart?: (body: MultipartAnswer) => Promise<void>,
): Promise<void> {
  const waitUntil = Date.now() + 60_000;
  for (let screens = 0; screens < 100; screens++) {
    const html = await get();
    const shown = screenOf(html);
    if (!shown) throw new Error('no step on the customer-information page');
    const step = shown[0] as StepId;
    const screen = shown[1];
    if (step === 'MILESTONE_THREE_STEP') return;
    const answer = httpAnswers[step];
    if (!answer) throw new Error(`No HTTP answer for ${step} in tests/support/customerInformation.ts`);
    const body = withScreen(screen, answer(screen, html));
    if (body === null) {
      // A loader: its wait is the worker's; look again shortly (not counted as a screen).
      if (Date.now() > waitUntil) throw new Error(`${step} ${screen} still waiting after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      screens--;
      continue;
    }
    if (typeof body === 'string') await post(body);
    else if (postMultipart) await postMultipart(body);
    else throw new Error(`${step} uploads a file: pass postMultipart to answerStepsOverHttp`);
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
