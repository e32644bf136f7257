// Tax information over HTTP (customer-information.md §4.5, §4.7, §7): the sandbox's POST submit tax
// residence and its validation, and the web server's tax step as plain form posts — an attest post is
// only taken when what it posts really is a FATCA case, and an enhanced (JavaScript) post refused by the
// upstream answers with the failure modal over the numbers, once.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import {
  brokerageErrorBody,
  brokeragePaths,
  createCaseResponse,
  createProspectResponse,
  initFileUploadResponse,
  refreshTokenResponse,
} from '../../shared/contracts/brokerage.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { answerStepsOverHttp, httpAnswers, type MultipartAnswer } from '../support/customerInformation.ts';
import { samplePdf } from '../support/files.ts';
import { identifyOverHttp } from '../support/journey.ts';

type Target = Parameters<typeof request>[0];
const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });

async function personaFor(app: Target, scenario: string): Promise<{ nationalId: string }> {
  const personas = (await request(app).get('/sandbox/personas').expect(200)).body as Array<{ nationalId: string; scenario: string; country: string }>;
  return personas.find((p) => p.scenario === scenario && p.country === 'SE')!;
}

/** A brokerage session (sandbox shortcut) and a fresh v3 prospect. */
async function prospectOf(app: Target, scenario: string): Promise<{ jwt: string; prospectId: string }> {
  const persona = await personaFor(app, scenario);
  const session = await request(app).post('/sandbox/sessions').send({ nationalId: persona.nationalId }).expect(200);
  const refreshed = await request(app).post(brokeragePaths.refreshToken).send({ refreshToken: session.body.refreshToken }).expect(200);
  const { jwt } = refreshTokenResponse.parse(refreshed.body);
  await request(app).put(brokeragePaths.becomeCustomerIntent).set(bearer(jwt)).send({ customerType: 'PRIVATE', country: 'SE' }).expect(204);
  await request(app).post(brokeragePaths.validationStepV3).set(bearer(jwt)).send({ country: 'SE' }).expect(200);
  const created = await request(app).post(brokeragePaths.prospectsV3).set(bearer(jwt)).send({ country: 'SE', customerType: 'PRIVATE' }).expect(200);
  return { jwt, prospectId: createProspectResponse.parse(created.body).prospect_id };
}

describe('sandbox: POST submit tax residence', () => {
  it('takes a TAX_RESIDENCE case of the prospect with files uploaded to it, and names the fields of anything else', async () => {
    const app = createSandboxApp({ publicUrl: 'http://sandbox.test' });
    const { jwt, prospectId } = await prospectOf(app, 'taxInformation');
    const auth = bearer(jwt);
    const createCase = async (type: string, countryCode: string) => {
      const res = await request(app).post(brokeragePaths.createCase).set(auth).send({ prospectId, type, taskData: { countryCode }, attachments: [] }).expect(200);
      return createCaseResponse.parse(res.body).data.taskId;
    };
    const taxCase = await createCase('TAX_RESIDENCE', 'SE');
    const residencyCase = await createCase('RESIDENCY', 'NO');

    // A file goes to the case like to a citizenship task: init-file-upload, then the PUT to the signed URL.
    const init = await request(app).post(brokeragePaths.initFileUpload).set(auth).send({ fileName: 'residence.pdf', contentType: 'application/pdf', taskId: taxCase }).expect(200);
    const { url, attachmentId } = initFileUploadResponse.parse(init.body).data;
    const target = new URL(url);
    await request(app).put(`${target.pathname}${target.search}`).set('Content-Type', 'application/pdf').send(samplePdf()).expect(200);
    // A file announced but never stored does not count.
    const announced = await request(app).post(brokeragePaths.initFileUpload).set(auth).send({ fileName: 'never.pdf', contentType: 'application/pdf', taskId: taxCase }).expect(200);
    const notStored = initFileUploadResponse.parse(announced.body).data.attachmentId;

    const valid = { prospectId, type: 'TAX_RESIDENCE', nnxTaskId: taxCase, taskData: { countryCode: 'SE' }, attachments: [{ attachmentId }] };
    const refused = async (body: object, status = 400) => {
      const res = await request(app).post(brokeragePaths.taxResidence).set(auth).send(body).expect(status);
      return brokerageErrorBody.parse(res.body).data?.fields;
    };
    expect(await refused({ ...valid, attachments: [] })).toEqual(['attachments']);
    expect(await refused({ ...valid, type: 'RESIDENCY' })).toEqual(['type']);
    expect(await refused({ ...valid, nnxTaskId: undefined, taskData: {} })).toEqual(['nnxTaskId', 'taskData.countryCode']);
    expect(await refused({ ...valid, nnxTaskId: 'no-such-case' })).toEqual(['nnxTaskId']);
    expect(await refused({ ...valid, nnxTaskId: residencyCase })).toEqual(['nnxTaskId']);
    expect(await refused({ ...valid, taskData: { countryCode: 'NO' } })).toEqual(['taskData.countryCode']);
    expect(await refused({ ...valid, attachments: [{ attachmentId }, { attachmentId: notStored }] })).toEqual(['attachments.1.attachmentId']);
    expect(await refused({ ...valid, attachments: [{ attachmentId: 'someone-elses' }] })).toEqual(['attachments.0.attachmentId']);
    expect(await request(app).get('/sandbox/tax-residences').expect(200).then((r) => r.body)).toEqual([]);

    // Another person cannot submit on this prospect.
    const other = await prospectOf(app, 'onboarding');
    await request(app).post(brokeragePaths.taxResidence).set(bearer(other.jwt)).send(valid).expect(403);

    await request(app).post(brokeragePaths.taxResidence).set(auth).send(valid).expect(200, {});
    expect((await request(app).get('/sandbox/tax-residences').expect(200)).body).toEqual([valid]);
  });

  it('refuses an upload to a task that is neither a citizenship task nor a case', async () => {
    const app = createSandboxApp({ publicUrl: 'http://sandbox.test' });
    const { jwt } = await prospectOf(app, 'taxInformation');
    const res = await request(app).post(brokeragePaths.initFileUpload).set(bearer(jwt)).send({ fileName: 'a.pdf', contentType: 'application/pdf', taskId: 'no-such-task' }).expect(400);
    expect(brokerageErrorBody.parse(res.body).data?.fields).toEqual(['taskId']);
  });
});

// --- the web server's tax step ---------------------------------------------------------------------

type Agent = ReturnType<typeof request.agent>;
let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ FLAG_TAX_RESIDENCE: 'true', FILE_RETRY_DELAY_MS: '5' });
});
afterAll(async () => stack?.stop());

const subStepOf = (html: string) => /data-step="([A-Z_]+)" data-sub-step="(\d+)"/.exec(html)?.slice(1);

/** BankID over HTTP as the persona of `scenario`, through routing, to its first customer-information step. */
async function identified(agent: Agent, scenario: string): Promise<string> {
  return (await identifyOverHttp(agent, stack.sandboxUrl, scenario)).page;
}

async function toTaxStep(agent: Agent): Promise<string> {
  const page = await identified(agent, 'taxInformation');
  expect(subStepOf((await agent.get(page).expect(200)).text)).toEqual(['TAX_INFO_STEP', '0']);
  return page;
}

const postMultipart = (agent: Agent, page: string) => async ({ fields, file }: MultipartAnswer) => {
  let req = agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin');
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  await req.attach('file', file.bytes, { filename: file.name, contentType: file.contentType }).expect(303);
};

/** The residency persona lives abroad: its residency step (answered as the walks do) sets an address in Norway. */
async function toTaxStepLivingAbroad(agent: Agent): Promise<string> {
  const page = await identified(agent, 'residency');
  for (let screens = 0; screens < 10; screens++) {
    const html = (await agent.get(page).expect(200)).text;
    const [step, subStep] = subStepOf(html)!;
    if (step !== 'RESIDENCY_STEP') break;
    const body = httpAnswers.RESIDENCY_STEP!(Number(subStep), html);
    if (typeof body === 'string') await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303);
    else await postMultipart(agent, page)(body);
  }
  expect(subStepOf((await agent.get(page).expect(200)).text)).toEqual(['TAX_INFO_STEP', '0']);
  return page;
}

describe('tax step over HTTP', () => {
  it('takes an attest post from a sub-step form only for a FATCA choice', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStep(agent);
    const post = async (body: string) => {
      await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(303);
      return subStepOf((await agent.get(page).expect(200)).text);
    };
    // Not FATCA: other countries, or home only with the address at home. Nothing is submitted.
    expect(await post('subStep=0&liability=other&intent=attest')).toEqual(['TAX_INFO_STEP', '0']);
    expect(await post('subStep=0&liability=inOffice&intent=attest')).toEqual(['TAX_INFO_STEP', '0']);
    expect(await post('subStep=0&liability=other')).toEqual(['TAX_INFO_STEP', '1']);
    expect(await post('subStep=1&countries=NO&countries=DE&intent=attest')).toEqual(['TAX_INFO_STEP', '1']);
    // An attest answering another sub-step than the one shown is stale.
    expect(await post('subStep=0&liability=usa&intent=attest')).toEqual(['TAX_INFO_STEP', '1']);
    // The US among the chosen countries is FATCA: attest resets to home only and finishes the step.
    expect(await post('subStep=1&countries=NO&countries=US&intent=attest')).toEqual(['MILESTONE_THREE_STEP', '0']);
  });

  it("the walks' HTTP answers get a person living abroad through the step by attesting on the FATCA screen", async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStepLivingAbroad(agent);
    const seen: string[] = [];
    await answerStepsOverHttp(
      async () => {
        const html = (await agent.get(page).expect(200)).text;
        seen.push(`${subStepOf(html)!.join(' ')}${html.includes('<section id="fatca-dialog"') ? ' FATCA' : ''}`);
        return html;
      },
      async (body) => void (await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303)),
      postMultipart(agent, page),
    );
    expect(seen).toEqual(['TAX_INFO_STEP 0', 'TAX_INFO_STEP 0 FATCA', 'MILESTONE_THREE_STEP 0']);
  });

  it('living abroad: the tax residence country is asked, and the proof is for it; another country updates the case', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStepLivingAbroad(agent);
    const post = (body: string, status = 303) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(status);
    await post('subStep=0&liability=other');
    await post('subStep=1&countries=NO&intent=continue');
    const numbers = (await agent.get(page).expect(200)).text;
    expect(numbers).toContain('Tax residence');
    const missing = await post('subStep=2&tin_NO=01018012345&startDate_NO=2015-03-01', 400);
    expect(missing.text).toContain('Please select your tax residence');
    expect(missing.text).toContain('value="01018012345"');

    await post('subStep=2&tin_NO=01018012345&startDate_NO=2015-03-01&taxResidenceCountryCode=NO');
    const proof = (await agent.get(page).expect(200)).text;
    expect(subStepOf(proof)).toEqual(['TAX_INFO_STEP', '3']);
    expect(proof).toContain('Proof of tax residence in Norway');
    await postMultipart(agent, page)({ fields: { step: 'TAX_INFO_STEP', subStep: '3', intent: 'upload' }, file: { name: 'no.pdf', contentType: 'application/pdf', bytes: samplePdf() } });
    expect((await agent.get(page).expect(200)).text).toContain('no.pdf');

    // Back, another residence country: the same case, now for Spain, without the Norwegian proof.
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303);
    await post('subStep=2&tin_NO=01018012345&startDate_NO=2015-03-01&taxResidenceCountryCode=ES');
    const spain = (await agent.get(page).expect(200)).text;
    expect(spain).toContain('Proof of tax residence in Spain');
    expect(spain).not.toContain('no.pdf');
    await postMultipart(agent, page)({ fields: { step: 'TAX_INFO_STEP', subStep: '3', intent: 'upload' }, file: { name: 'es.pdf', contentType: 'application/pdf', bytes: samplePdf() } });
    await post('subStep=3&intent=finish');
    expect(subStepOf((await agent.get(page).expect(200)).text)).toEqual(['MILESTONE_THREE_STEP', '0']);

    const objects = (await request(stack.sandboxUrl).get('/sandbox/storage/objects').expect(200)).body as Array<{ taskId: string; attachmentId: string; fileName: string }>;
    const [no, es] = [objects.find((o) => o.fileName === 'no.pdf')!, objects.find((o) => o.fileName === 'es.pdf')!];
    expect(es.taskId).toBe(no.taskId);
    const residences = (await request(stack.sandboxUrl).get('/sandbox/tax-residences').expect(200)).body as Array<Record<string, unknown>>;
    expect(residences).toContainEqual(expect.objectContaining({ nnxTaskId: es.taskId, taskData: { countryCode: 'ES' }, attachments: [{ attachmentId: es.attachmentId }] }));
  });

  it('answers a refused enhanced post with the failure modal over the numbers once, and a plain one with the screen', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStep(agent);
    const post = (body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(303);
    await post('subStep=0&liability=other');
    await post('subStep=1&countries=NO&intent=continue');
    // A start date before the person's birth: fine for the page, refused by the upstream after the proof.
    await post('subStep=2&tin_NO=01018012345&startDate_NO=1950-01-01');
    const proof = await agent.get(page).expect(200);
    expect(subStepOf(proof.text)).toEqual(['TAX_INFO_STEP', '3']);
    // Continue without a file: refused by the page, the files' message shown.
    const empty = await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send('step=TAX_INFO_STEP&subStep=3&intent=finish').expect(400);
    expect(empty.text).toContain('Upload at least one file');
    await agent
      .post(`${page}/step`).set('sec-fetch-site', 'same-origin')
      .field('step', 'TAX_INFO_STEP')
      .field('subStep', '3')
      .field('intent', 'upload')
      .attach('file', samplePdf(), { filename: 'residence.pdf', contentType: 'application/pdf' })
      .expect(303);

    await post('subStep=3&intent=finish&enhanced=yes');
    const numbers = await agent.get(page).expect(200);
    expect(subStepOf(numbers.text)).toEqual(['TAX_INFO_STEP', '2']);
    expect(numbers.text).toContain('id="tax-failure-dialog"');
    expect(numbers.text).toContain('&quot;openOnLoad&quot;:true');
    expect(numbers.text).toContain('value="1950-01-01"');
    // Once: a reload shows the form alone.
    expect((await agent.get(page).expect(200)).text).not.toContain('id="tax-failure-dialog"');

    // The same refusal from a page without JavaScript: the failure screen, whose retry leads to the numbers.
    await post('subStep=2&tin_NO=01018012345&startDate_NO=1950-01-01');
    await post('subStep=3&intent=finish');
    const screen = await agent.get(page).expect(200);
    expect(screen.text).toContain('<section id="tax-failure-dialog" class="dialog dialog--screen"');
    await post('intent=retry');
    expect(subStepOf((await agent.get(page).expect(200)).text)).toEqual(['TAX_INFO_STEP', '2']);
  });
});
