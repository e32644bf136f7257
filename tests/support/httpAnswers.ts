// The customer-information page over plain HTTP, without a test runner (the tests and `npm run bench` both walk it):
// each implemented step's answer as its form posts it, given the page's HTML, and the walk up to milestone three.
// tests/support/customerInformation.ts adds the browser's answers and the tests' own checks.
import type { StepId } from '../../shared/contracts/brokerageContract.ts';
import { PEP_NO, PEP_YES } from '../../shared/contracts/kycContract.ts';
import { samplePng } from './files.ts';
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
export const RESIDENCY_DIALOG = 'We need more information because you live abroad';
export const residencyAddress = { addressCountry: 'DE', address: 'Invalidenstraße 1', zipCode: '10115', city: 'Berlin' };
export const residencyAnswers = {
  applicationPurpose: 'Saving for retirement',
  reasonForLivingAbroad: 'I work in Berlin',
  durationAbroad: 'Three years so far, two more planned',
};
export const residencyDocument = () => ({ name: 'address.png', contentType: 'image/png', bytes: samplePng() });

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
  if (!answer) throw new Error(`No HTTP answer for ${step} in tests/support/httpAnswers.ts`);
  const body = withScreen(screen, answer(screen, html));
  if (body === null) throw new Error(`${step} ${screen} has nothing to post (a loader)`);
  return body;
}

/** The step and screen a customer-information page's HTML shows. */
export function screenOf(html: string): [step: string, screen: string] | undefined {
  const match = /data-step="([A-Z_]+)" data-screen="([A-Za-z]+)"/.exec(html);
  return match ? [match[1]!, match[2]!] : undefined;
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
    if (!answer) throw new Error(`No HTTP answer for ${step} in tests/support/httpAnswers.ts`);
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
