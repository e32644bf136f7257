// Each step's saved answers prefilled after identifying again: the test saves the steps at the sandbox as the person
// (its own login, the calls the page makes), identifies in a fresh browser and finds the application at the first
// unfinished step (a step left part-way at its first unsaved sub-step) with every saved answer and file name shown.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { brokeragePaths, createCaseResponse, submitCitizenshipResponse, type Milestone } from '../../shared/contracts/brokerageContract.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { screenOf } from '../support/customerInformation.ts';
import { residencyAddress, residencyAnswers } from '../support/httpAnswers.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';
import { bearer, loginWithBankid } from '../support/sandboxApi.ts';
import { prospectsOf, uploadTo } from '../support/savedApplication.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;
beforeAll(async () => {
  stack = await startEmbeddedStack({ SANDBOX_PROSPECT_KEEP_DAYS: '90', FLAG_TAX_RESIDENCE: 'true' });
});
afterAll(async () => stack?.stop());
beforeEach(async () => void (await request(stack.sandboxUrl).post('/sandbox/reset').expect(204)));

const back = (agent: Agent, page: string) => agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').type('form').send('').expect(303);
const html = async (agent: Agent, page: string) => (await agent.get(page).expect(200)).text;
/** The page at `shown` (step, screen) with each of `texts` in it; answers its HTML. */
async function expectShown(agent: Agent, page: string, shown: [string, string], ...texts: string[]): Promise<string> {
  const body = await html(agent, page);
  expect(screenOf(body)).toEqual(shown);
  for (const text of texts) expect(body).toContain(text);
  return body;
}
const checked = (page: string, name: string, value: string) =>
  new RegExp(`<input(?=[^>]*name="${name}")(?=[^>]*value="${value}")(?=[^>]*checked)[^>]*>`).test(page);

/** The person's calls at the sandbox, as the page makes them (their own login). */
interface Saver {
  prospectId: string;
  post(path: string, body: object): Promise<request.Response>;
  milestone(m: Milestone): Promise<unknown>;
  upload(taskId: string, fileName: string): Promise<string>;
}

/**
 * `scenario` identified in one browser (its application made), `save` run as the person, then identified again in
 * another browser: answers that browser and the page (the same application).
 */
async function savedThenIdentified(scenario: string, save: (saver: Saver) => Promise<void>): Promise<{ agent: Agent; page: string; prospectId: string }> {
  const first = await identifyOverHttp(request.agent(stack.webUrl), stack.sandboxUrl, scenario);
  const { jwt } = await loginWithBankid(stack.sandboxUrl, scenario);
  const post = (path: string, body: object) => request(stack.sandboxUrl).post(path).set(bearer(jwt)).send(body).expect(200);
  await save({
    prospectId: first.prospectId,
    post,
    milestone: (m) => request(stack.sandboxUrl).post(brokeragePaths.milestoneStep(first.prospectId, m)).set(bearer(jwt)).send({}).expect(200),
    upload: (taskId, fileName) => uploadTo(stack.sandboxUrl, jwt, taskId, fileName),
  });
  const agent = request.agent(stack.webUrl);
  const again = await identifyOverHttp(agent, stack.sandboxUrl, scenario);
  expect(again.page).toBe(first.page);
  return { agent, page: again.page, prospectId: first.prospectId };
}

// The default step list up to (and with) the contact details: milestone one, the accounts, their names, milestone two.
async function savedToContact(s: Saver): Promise<void> {
  await s.milestone('one');
  await s.post(brokeragePaths.accountPickerStep(s.prospectId), { accountTypesWithCountry: ['DEP_SE'] });
  await s.post(brokeragePaths.accountAliasStep(s.prospectId), { accountTypeAliases: [{ accountTypeWithCountry: 'DEP_SE', alias: 'Min depå' }] });
  await s.milestone('two');
  await s.post(brokeragePaths.contactInfoStep(s.prospectId), { email: 'ida.berg@example.com', mobilePhoneNumber: '+46709876543' });
}

/** The citizenship submit as the page sends it: the market and Norway; answers Norway's task. */
async function citizenOfNorwayToo(s: Saver, attachments: string[] = []): Promise<string> {
  const body = { prospectId: s.prospectId, isCitizenInTld: true, citizenshipInformationList: [{ countryCode: 'NO', attachments }] };
  return submitCitizenshipResponse.parse((await s.post(brokeragePaths.submitCitizenshipV3, body)).body).data.tasks[0]!.taskId;
}

/** The residency case as the questions make it (address and answers), with a document uploaded to it; answers its task. */
async function residencyCase(s: Saver, fileName: string): Promise<{ taskId: string; attachmentId: string }> {
  const body = { prospectId: s.prospectId, type: 'RESIDENCY', taskData: { ...residencyAddress, ...residencyAnswers }, attachments: [] };
  const { taskId } = createCaseResponse.parse((await s.post(brokeragePaths.createCase, body)).body).data;
  return { taskId, attachmentId: await s.upload(taskId, fileName) };
}

/** The residency step submitted with its document, and the tax answers with a Norwegian number. */
async function residencyAndTaxSaved(s: Saver): Promise<void> {
  const { taskId, attachmentId } = await residencyCase(s, 'rental-contract.pdf');
  await s.post(brokeragePaths.residencyStep(s.prospectId), {
    ...residencyAddress,
    questionsAndAnswers: Object.entries(residencyAnswers).map(([question, answer]) => ({ question, answer })),
    attachments: [{ attachmentId }],
    nnxTaskId: taskId,
  });
  await s.post(brokeragePaths.taxInfoStepV3(s.prospectId), { taxableInTld: true, taxInformationListOutsideOfTld: [NORWEGIAN_TIN] });
}

const NORWEGIAN_TIN = { countryCode: 'NO', taxIdentificationNumber: '01017012345', startDate: '2020-01-01' };

describe('each step prefilled after identifying again', () => {
  it('milestone one and the account picker: opens the names of the accounts chosen, Back shows the choice', async () => {
    const { agent, page } = await savedThenIdentified('onboarding', async (s) => {
      await s.milestone('one');
      await s.post(brokeragePaths.accountPickerStep(s.prospectId), { accountTypesWithCountry: ['DEP_SE'] });
    });
    const names = await html(agent, page);
    expect(screenOf(names)?.[0]).toBe('ACCOUNT_ALIAS_STEP');
    // One name per account chosen: the depot only.
    expect(names).toContain('name="alias_DEP_SE"');
    expect(names).not.toContain('name="alias_ISK_SE"');
    await back(agent, page);
    const picker = await html(agent, page);
    expect(screenOf(picker)?.[0]).toBe('ACCOUNT_PICKER_STEP');
    expect(checked(picker, 'accounts', 'DEP_SE')).toBe(true);
    expect(checked(picker, 'accounts', 'ISK_SE')).toBe(false);
  });

  it('the account names: Back from milestone two shows the saved name', async () => {
    const { agent, page } = await savedThenIdentified('onboarding', async (s) => {
      await s.milestone('one');
      await s.post(brokeragePaths.accountPickerStep(s.prospectId), { accountTypesWithCountry: ['ISK_SE', 'DEP_SE'] });
      await s.post(brokeragePaths.accountAliasStep(s.prospectId), {
        accountTypeAliases: [
          { accountTypeWithCountry: 'ISK_SE', alias: 'Barnens sparande' },
          { accountTypeWithCountry: 'DEP_SE', alias: 'Handel' },
        ],
      });
    });
    expect(screenOf(await html(agent, page))?.[0]).toBe('MILESTONE_TWO_STEP');
    await back(agent, page);
    const names = await html(agent, page);
    expect(screenOf(names)?.[0]).toBe('ACCOUNT_ALIAS_STEP');
    expect(names).toContain('value="Barnens sparande"');
    expect(names).toContain('value="Handel"');
  });

  it('milestone two and the contact details: opens citizenship, Back shows the e-mail and phone', async () => {
    const { agent, page } = await savedThenIdentified('onboarding', savedToContact);
    expect(screenOf(await html(agent, page))).toEqual(['CITIZENSHIP_STEP', 'choice']);
    await back(agent, page);
    await expectShown(agent, page, ['CONTACT_INFORMATION_STEP', 'contact'], 'value="ida.berg@example.com"', 'value="070-987 65 43"');
  });

  it('citizenship with another country and its proof: opens the tax step, Back shows the choice', async () => {
    const { agent, page } = await savedThenIdentified('onboarding', async (s) => {
      await savedToContact(s);
      const taskId = await citizenOfNorwayToo(s);
      const attachmentId = await s.upload(taskId, 'passport-norway.pdf');
      await s.post(brokeragePaths.submitCitizenshipV3, {
        prospectId: s.prospectId,
        isCitizenInTld: true,
        citizenshipInformationList: [{ countryCode: 'NO', taskId, attachments: [attachmentId] }],
      });
    });
    expect(screenOf(await html(agent, page))).toEqual(['TAX_INFO_STEP', 'liability']);
    await back(agent, page);
    const choice = await expectShown(agent, page, ['CITIZENSHIP_STEP', 'choice']);
    expect(checked(choice, 'choice', 'otherCitizenships')).toBe(true);
  });

  it('citizenship left before the proof: opens the proof with the file uploaded so far, Back shows the countries and the choice', async () => {
    const { agent, page, prospectId } = await savedThenIdentified('onboarding', async (s) => {
      await savedToContact(s);
      await s.upload(await citizenOfNorwayToo(s), 'passport-norway.pdf');
    });
    await expectShown(agent, page, ['CITIZENSHIP_STEP', 'proof'], 'passport-norway.pdf');
    await back(agent, page);
    const countries = await expectShown(agent, page, ['CITIZENSHIP_STEP', 'countries']);
    expect(checked(countries, 'countries', 'NO')).toBe(true);
    expect(checked(countries, 'countries', 'SE')).toBe(true);
    await back(agent, page);
    expect(checked(await html(agent, page), 'choice', 'otherCitizenships')).toBe(true);

    // Forward again without choosing anew: the proof is complete, Continue sends it once.
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=choice&intent=choose&choice=otherCitizenships&confirmed=yes').expect(303);
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=countries&intent=countries&countries=SE&countries=NO').expect(303);
    expect(await html(agent, page)).toContain('passport-norway.pdf');
    await postStep(agent, page, 'step=CITIZENSHIP_STEP&screen=proof&intent=finish').expect(303);
    expect(screenOf(await html(agent, page))?.[0]).toBe('TAX_INFO_STEP');
    const [saved] = await prospectsOf(stack.sandboxUrl, (await loginWithBankid(stack.sandboxUrl, 'onboarding')).persona.nationalId);
    expect(saved!.prospectId).toBe(prospectId);
    expect(saved!.steps.find((st) => st.stepName === 'CITIZENSHIP_STEP')?.completed).toBe(true);
  });

  it('residency and tax numbers: the summary shows the address, the answers, the document by name and the tax number', async () => {
    const { agent, page } = await savedThenIdentified('residency', residencyAndTaxSaved);
    const summary = await expectShown(agent, page, ['MILESTONE_THREE_STEP', 'milestone']);
    for (const shown of [residencyAddress.address, residencyAddress.city, residencyAnswers.reasonForLivingAbroad, 'rental-contract.pdf', '01017012345']) {
      expect(summary).toContain(shown);
    }
    expect(summary).toContain('Sign with Bank ID');
  });

  it('residency left before its documents: opens the documents with the file, Back shows the answers and the address', async () => {
    const { agent, page } = await savedThenIdentified('residency', async (s) => void (await residencyCase(s, 'rental-contract.pdf')));
    await expectShown(agent, page, ['RESIDENCY_STEP', 'documents'], 'rental-contract.pdf');
    await back(agent, page);
    await expectShown(agent, page, ['RESIDENCY_STEP', 'questions'], residencyAnswers.durationAbroad);
    await back(agent, page);
    await expectShown(agent, page, ['RESIDENCY_STEP', 'address'], `value="${residencyAddress.address}"`, `value="${residencyAddress.zipCode}"`);
  });

  it('tax left before the proof of tax residence: opens the proof with its file, Back shows the number, the countries and the liability', async () => {
    const { agent, page } = await savedThenIdentified('residency', async (s) => {
      await residencyAndTaxSaved(s);
      const proof = { prospectId: s.prospectId, type: 'TAX_RESIDENCE', taskData: { countryCode: 'DE' }, attachments: [] };
      await s.upload(createCaseResponse.parse((await s.post(brokeragePaths.createCase, proof)).body).data.taskId, 'tax-certificate.pdf');
    });
    await expectShown(agent, page, ['TAX_INFO_STEP', 'residenceProof'], 'tax-certificate.pdf');
    await back(agent, page);
    await expectShown(agent, page, ['TAX_INFO_STEP', 'numbers'], 'value="01017012345"');
    await back(agent, page);
    expect(checked(await html(agent, page), 'countries', 'NO')).toBe(true);
    await back(agent, page);
    const liability = await expectShown(agent, page, ['TAX_INFO_STEP', 'liability']);
    expect(checked(liability, 'liability', 'other')).toBe(true);
  });
});
