// Tax information over HTTP (customer-information.md §4.5, §4.7, §7): the sandbox's POST submit tax
// residence and its validation, and the web server's tax step as plain form posts — an attest post is
// only taken when what it posts really is a FATCA case, and an enhanced (JavaScript) post refused by the
// upstream answers with the failure modal over the numbers, once (in the post's own response).
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
} from '../../shared/contracts/brokerageContract.ts';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { answerStepsOverHttp, httpAnswerOf, screenOf, type MultipartAnswer } from '../support/customerInformation.ts';
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
      const res = await request(app)
        .post(brokeragePaths.createCase)
        .set(auth)
        .send({ prospectId, type, taskData: { countryCode }, attachments: [] })
        .expect(200);
      return createCaseResponse.parse(res.body).data.taskId;
    };
    const taxCase = await createCase('TAX_RESIDENCE', 'SE');
    const residencyCase = await createCase('RESIDENCY', 'NO');

    // A file goes to the case like to a citizenship task: init-file-upload, then the PUT to the signed URL.
    const init = await request(app)
      .post(brokeragePaths.initFileUpload)
      .set(auth)
      .send({ fileName: 'residence.pdf', contentType: 'application/pdf', taskId: taxCase })
      .expect(200);
    const { url, attachmentId } = initFileUploadResponse.parse(init.body).data;
    const target = new URL(url);
    await request(app).put(`${target.pathname}${target.search}`).set('Content-Type', 'application/pdf').send(samplePdf()).expect(200);
    // A file announced but never stored does not count.
    const announced = await request(app)
      .post(brokeragePaths.initFileUpload)
      .set(auth)
      .send({ fileName: 'never.pdf', contentType: 'application/pdf', taskId: taxCase })
      .expect(200);
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
    expect(
      await request(app)
        .get('/sandbox/tax-residences')
        .expect(200)
        .then((r) => r.body),
    ).toEqual([]);

    // Another person cannot submit on this prospect.
    const other = await prospectOf(app, 'onboarding');
    await request(app).post(brokeragePaths.taxResidence).set(bearer(other.jwt)).send(valid).expect(403);

    await request(app).post(brokeragePaths.taxResidence).set(auth).send(valid).expect(200, {});
    expect((await request(app).get('/sandbox/tax-residences').expect(200)).body).toEqual([valid]);
  });

  it('refuses an upload to a task that is neither a citizenship task nor a case', async () => {
    const app = createSandboxApp({ publicUrl: 'http://sandbox.test' });
    const { jwt } = await prospectOf(app, 'taxInformation');
    const res = await request(app)
      .post(brokeragePaths.initFileUpload)
      .set(bearer(jwt))
      .send({ fileName: 'a.pdf', contentType: 'application/pdf', taskId: 'no-such-task' })
      .expect(400);
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

/** BankID over HTTP as the persona of `scenario`, through routing, to its first customer-information step. */
async function identified(agent: Agent, scenario: string): Promise<string> {
  return (await identifyOverHttp(agent, stack.sandboxUrl, scenario)).page;
}

async function toTaxStep(agent: Agent): Promise<string> {
  const page = await identified(agent, 'taxInformation');
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['TAX_INFO_STEP', 'liability']);
  return page;
}

const postMultipart =
  (agent: Agent, page: string) =>
  async ({ fields, file }: MultipartAnswer) => {
    let req = agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin');
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    await req.attach('file', file.bytes, { filename: file.name, contentType: file.contentType }).expect(303);
  };

/** The residency persona lives abroad: its residency step (answered as the walks do) sets an address in Norway. */
async function toTaxStepLivingAbroad(agent: Agent): Promise<string> {
  const page = await identified(agent, 'residency');
  for (let screens = 0; screens < 10; screens++) {
    const html = (await agent.get(page).expect(200)).text;
    const [step, screen] = screenOf(html)!;
    if (step !== 'RESIDENCY_STEP') break;
    // As the walks post it (tests/support/customerInformation.ts).
    const body = httpAnswerOf('RESIDENCY_STEP', screen, html);
    if (typeof body === 'string') await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303);
    else await postMultipart(agent, page)(body);
  }
  expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['TAX_INFO_STEP', 'liability']);
  return page;
}

describe('tax step over HTTP', () => {
  it("takes an attest post from a screen's form only for a FATCA choice", async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStep(agent);
    const post = async (body: string) => {
      await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(303);
      return screenOf((await agent.get(page).expect(200)).text);
    };
    // Not FATCA: other countries, or home only with the address at home. Nothing is submitted.
    expect(await post('screen=liability&liability=other&intent=attest')).toEqual(['TAX_INFO_STEP', 'liability']);
    expect(await post('screen=liability&liability=inOffice&intent=attest')).toEqual(['TAX_INFO_STEP', 'liability']);
    expect(await post('screen=liability&liability=other')).toEqual(['TAX_INFO_STEP', 'countries']);
    expect(await post('screen=countries&countries=NO&countries=DE&intent=attest')).toEqual(['TAX_INFO_STEP', 'countries']);
    // An attest answering another screen than the one shown is stale.
    expect(await post('screen=liability&liability=usa&intent=attest')).toEqual(['TAX_INFO_STEP', 'countries']);
    // The US among the chosen countries is FATCA: attest resets to home only and finishes the step.
    expect(await post('screen=countries&countries=NO&countries=US&intent=attest')).toEqual(['MILESTONE_THREE_STEP', 'milestone']);
  });

  it("the walks' HTTP answers get a person living abroad through the step by attesting on the FATCA screen", async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStepLivingAbroad(agent);
    const seen: string[] = [];
    await answerStepsOverHttp(
      async () => {
        const html = (await agent.get(page).expect(200)).text;
        seen.push(`${screenOf(html)!.join(' ')}${html.includes('<section id="fatca-dialog"') ? ' FATCA' : ''}`);
        return html;
      },
      async (body) => void (await agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body).expect(303)),
      postMultipart(agent, page),
    );
    expect(seen).toEqual(['TAX_INFO_STEP liability', 'TAX_INFO_STEP fatca FATCA', 'MILESTONE_THREE_STEP milestone']);
  });

  it('living abroad: the tax residence country is asked, and the proof is for it; another country updates the case', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStepLivingAbroad(agent);
    const post = (body: string, status = 303) =>
      agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(status);
    await post('screen=liability&liability=other');
    await post('screen=countries&countries=NO&intent=continue');
    const numbers = (await agent.get(page).expect(200)).text;
    expect(numbers).toContain('Tax residence');
    const missing = await post('screen=numbers&tin_NO=01018012345&startDate_NO=2015-03-01', 400);
    expect(missing.text).toContain('Please select your tax residence');
    expect(missing.text).toContain('value="01018012345"');

    await post('screen=numbers&tin_NO=01018012345&startDate_NO=2015-03-01&taxResidenceCountryCode=NO');
    const proof = (await agent.get(page).expect(200)).text;
    expect(screenOf(proof)).toEqual(['TAX_INFO_STEP', 'residenceProof']);
    expect(proof).toContain('Proof of tax residence in Norway');
    await postMultipart(
      agent,
      page,
    )({
      fields: { step: 'TAX_INFO_STEP', screen: 'residenceProof', intent: 'upload', slot: 'NO' },
      file: { name: 'no.pdf', contentType: 'application/pdf', bytes: samplePdf() },
    });
    expect((await agent.get(page).expect(200)).text).toContain('no.pdf');

    // Back, another residence country: the same case, now for Spain, without the Norwegian proof.
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303);
    await post('screen=numbers&tin_NO=01018012345&startDate_NO=2015-03-01&taxResidenceCountryCode=ES');
    const spain = (await agent.get(page).expect(200)).text;
    expect(spain).toContain('Proof of tax residence in Spain');
    expect(spain).not.toContain('no.pdf');
    await postMultipart(
      agent,
      page,
    )({
      fields: { step: 'TAX_INFO_STEP', screen: 'residenceProof', intent: 'upload', slot: 'ES' },
      file: { name: 'es.pdf', contentType: 'application/pdf', bytes: samplePdf() },
    });
    await post('screen=residenceProof&intent=finish');
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['MILESTONE_THREE_STEP', 'milestone']);

    const objects = (await request(stack.sandboxUrl).get('/sandbox/storage/objects').expect(200)).body as Array<{
      taskId: string;
      attachmentId: string;
      fileName: string;
    }>;
    const [no, es] = [objects.find((o) => o.fileName === 'no.pdf')!, objects.find((o) => o.fileName === 'es.pdf')!];
    expect(es.taskId).toBe(no.taskId);
    const residences = (await request(stack.sandboxUrl).get('/sandbox/tax-residences').expect(200)).body as Array<Record<string, unknown>>;
    expect(residences).toContainEqual(
      expect.objectContaining({ nnxTaskId: es.taskId, taskData: { countryCode: 'ES' }, attachments: [{ attachmentId: es.attachmentId }] }),
    );
  });

  it('answers a refused enhanced post with the failure modal over the numbers once, and a plain one with the screen', async () => {
    const agent = request.agent(stack.webUrl);
    const page = await toTaxStep(agent);
    const post = (body: string, status = 303) =>
      agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(`step=TAX_INFO_STEP&${body}`).expect(status);
    await post('screen=liability&liability=other');
    await post('screen=countries&countries=NO&intent=continue');
    // A start date before the person's birth: fine for the page, refused by the upstream after the proof.
    await post('screen=numbers&tin_NO=01018012345&startDate_NO=1950-01-01');
    const proof = await agent.get(page).expect(200);
    expect(screenOf(proof.text)).toEqual(['TAX_INFO_STEP', 'residenceProof']);
    // Continue without a file: refused by the page, the files' message shown.
    const empty = await agent
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('step=TAX_INFO_STEP&screen=residenceProof&intent=finish')
      .expect(400);
    expect(empty.text).toContain('Upload at least one file');
    await agent
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .field('step', 'TAX_INFO_STEP')
      .field('screen', 'residenceProof')
      .field('intent', 'upload')
      .field('slot', 'SE')
      .attach('file', samplePdf(), { filename: 'residence.pdf', contentType: 'application/pdf' })
      .expect(303);

    // The post's own response is the numbers with the modal open (a GET changes nothing, so no flag carries it).
    const numbers = await post('screen=residenceProof&intent=finish&enhanced=yes', 400);
    expect(screenOf(numbers.text)).toEqual(['TAX_INFO_STEP', 'numbers']);
    expect(numbers.text).toContain('id="tax-failure-dialog"');
    expect(numbers.text).toContain('&quot;openOnLoad&quot;:true');
    expect(numbers.text).toContain('value="1950-01-01"');
    // Once: a reload shows the form alone.
    expect((await agent.get(page).expect(200)).text).not.toContain('id="tax-failure-dialog"');

    // The same refusal from a page without JavaScript: the failure screen, whose retry leads to the numbers.
    await post('screen=numbers&tin_NO=01018012345&startDate_NO=1950-01-01');
    await post('screen=residenceProof&intent=finish');
    const screen = await agent.get(page).expect(200);
    expect(screen.text).toContain('<section id="tax-failure-dialog" class="dialog dialog--screen"');
    await post('screen=failure&intent=retry');
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['TAX_INFO_STEP', 'numbers']);
  });
});
