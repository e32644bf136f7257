// The residency step over HTTP against the embedded stack (customer-information §2.3 "Residency",
// customer-information §5 "Residency", §7, §8): plain form posts as a browser without JavaScript sends them. Bad input answers 400
// with the messages and the input kept (never a 500); the case is created (and reused), the document is
// uploaded as a multipart post, and the sandbox receives the residency submission.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { samplePdf, samplePng } from '../support/files.ts';
import { answerStepsOverHttp, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;

let stack: Stack;

beforeAll(async () => {
  stack = await startEmbeddedStack({ FILE_RETRY_DELAY_MS: '5' });
});
afterAll(async () => stack?.stop());

const STEP = 'step=RESIDENCY_STEP';
const SLOT = 'proofOfAddress';
const form = (screen: string, fields: Record<string, string>) => new URLSearchParams({ step: 'RESIDENCY_STEP', screen, ...fields }).toString();
const address = { addressCountry: 'NO', address: 'Storgata 1', zipCode: '0155', city: 'Oslo' };
const answers = { applicationPurpose: 'Saving for retirement', reasonForLivingAbroad: 'I work in Oslo', durationAbroad: 'Three years' };

interface SandboxResidency {
  prospectId: string;
  cases: Array<{ taskId: string; type: string; prospectId: string; taskData: Record<string, string>; attachments: unknown[] }>;
  residency: Record<string, unknown> | null;
}
const sandboxResidency = async (prospectId: string) =>
  ((await request(stack.sandboxUrl).get('/sandbox/residency').expect(200)).body as SandboxResidency[]).find((r) => r.prospectId === prospectId);

/** BankID over HTTP as a persona of the scenario, through routing, to the residency step. */
const toResidency = (agent: Agent, scenario: string) => identifyOverHttp(agent, stack.sandboxUrl, scenario);

const post = (agent: Agent, page: string, body: string) => agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin').type('form').send(body);
const upload = (agent: Agent, page: string, bytes: Buffer, name: string, type: string) =>
  agent
    .post(`${page}/step`)
    .set('sec-fetch-site', 'same-origin')
    .field('step', 'RESIDENCY_STEP')
    .field('screen', 'documents')
    .field('intent', 'upload')
    .field('slot', SLOT)
    .attach('file', bytes, { filename: name, contentType: type });

describe('residency step over HTTP', () => {
  it('dialog until answered, address and answer errors with input kept, the case, the upload, then the submission', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toResidency(agent, 'residency');

    // The first visit: the RESIDENCY dialog is the screen, with the link to the manual form.
    const first = await agent.get(page).expect(200);
    expect(screenOf(first.text)).toEqual(['RESIDENCY_STEP', 'dialog']);
    expect(first.text).toContain('We need more information because you live abroad');
    expect(first.text).toContain('You live outside Sweden.');
    expect(first.text).toContain('href="https://forms.example.com/additional-information/identified?exit=RESIDENCY"');
    expect(first.text).toMatch(/<div id="residency-address-step" hidden="">/);
    // Until it is answered a reload shows it again; Continue leads to the address form, for good.
    expect((await agent.get(page).expect(200)).text).toContain('id="residency-dialog-screen"');
    await post(agent, page, form('dialog', { intent: 'dialogContinue' }))
      .expect(303)
      .expect('location', page);
    const reload = await agent.get(page).expect(200);
    expect(reload.text).not.toContain('id="residency-dialog-screen"');
    expect(reload.text).toContain('Your address abroad');
    // It can be opened again on purpose (its own address).
    expect((await agent.get(`${page}?dialog=RESIDENCY`).expect(200)).text).toContain('id="residency-dialog-screen"');

    // The country list leaves out the home country.
    expect(reload.text).toContain('<option value="NO">Norway</option>');
    expect(reload.text).not.toContain('<option value="SE">');

    // Missing fields: 400, a message per field, the typed input kept.
    const missing = await post(
      agent,
      page,
      form('address', { intent: 'address', addressCountry: '', address: '  Storgata 1 ', zipCode: ' ', city: '' }),
    ).expect(400);
    expect(missing.text).toContain('Choose the country you live in');
    expect(missing.text).toContain('Enter your zip code');
    expect(missing.text).toContain('Enter your city');
    expect(missing.text).not.toContain('Enter your address');
    expect(missing.text).toContain('value="Storgata 1"');
    expect(missing.text).toMatch(/id="residency-zipCode"[^>]*aria-invalid="true"/);
    // Kept in the session too: a reload shows it.
    expect((await agent.get(page).expect(200)).text).toContain('value="Storgata 1"');

    // The home country, a made-up code, an over-long field: refused with their own messages.
    const home = await post(agent, page, form('address', { intent: 'address', ...address, addressCountry: 'SE' })).expect(400);
    expect(home.text).toContain('Choose a country other than Sweden');
    const unknown = await post(agent, page, form('address', { intent: 'address', ...address, addressCountry: 'XX' })).expect(400);
    expect(unknown.text).toContain('Choose a country from the list');
    const long = await post(agent, page, form('address', { intent: 'address', ...address, city: 'c'.repeat(101) })).expect(400);
    expect(long.text).toContain('Use at most 100 characters');
    // Repeated or odd fields are still a 400 with messages, never a 500.
    const odd = await post(agent, page, `${STEP}&screen=address&intent=address&addressCountry=NO&addressCountry=DK&address=&zipCode=1&city=x`).expect(400);
    expect(odd.text).toContain('Enter your address');
    expect(screenOf((await agent.get(page)).text)).toEqual(['RESIDENCY_STEP', 'address']);

    await post(agent, page, form('address', { intent: 'address', ...address })).expect(303);
    const questions = await agent.get(page).expect(200);
    expect(screenOf(questions.text)).toEqual(['RESIDENCY_STEP', 'questions']);
    expect(questions.text).toContain('What is the purpose of your application?');

    // An empty and an over-long answer: 400, messages, the other answer kept; no case yet.
    const bad = await post(
      agent,
      page,
      form('questions', { intent: 'questions', applicationPurpose: 'Saving', reasonForLivingAbroad: '   ', durationAbroad: 'x'.repeat(2001) }),
    ).expect(400);
    expect(bad.text).toContain('Answer the question');
    expect(bad.text).toContain('Use at most 2,000 characters');
    expect(bad.text).toContain('>Saving</textarea>');
    expect(await sandboxResidency(prospectId)).toBeUndefined();

    // Leaving the questions creates the case with the address and answers.
    await post(agent, page, form('questions', { intent: 'questions', ...answers })).expect(303);
    expect(screenOf((await agent.get(page)).text)).toEqual(['RESIDENCY_STEP', 'documents']);
    const created = await sandboxResidency(prospectId);
    expect(created?.cases).toEqual([expect.objectContaining({ type: 'RESIDENCY', prospectId, taskData: { ...address, ...answers }, attachments: [] })]);
    const taskId = created!.cases[0]!.taskId;

    // Continue without a document: refused with a message.
    const none = await post(agent, page, form('documents', { intent: 'finish' })).expect(400);
    expect(none.text).toContain('Upload at least one document');
    // A file that is not a PDF, PNG or JPEG is refused; a PNG is stored on the case.
    const text = await upload(agent, page, Buffer.from('plain text\n'), 'bill.pdf', 'application/pdf').expect(400);
    expect(text.text).toContain('We only support PDF, PNG and JPEG, please try again');
    await upload(agent, page, samplePng(), 'bill.png', 'image/png').expect(303);
    const objects = (await request(stack.sandboxUrl).get('/sandbox/storage/objects').expect(200)).body as Array<{
      taskId: string;
      attachmentId: string;
      fileName: string;
    }>;
    const png = objects.find((o) => o.taskId === taskId && o.fileName === 'bill.png')!;
    expect(png).toBeDefined();
    expect((await agent.get(page)).text).toContain('bill.png');

    // Removing asks first (its own screen), then forgets the file.
    const removeScreen = await agent.get(`${page}?remove=${png.attachmentId}&slot=${SLOT}`).expect(200);
    expect(removeScreen.text).toContain('Do you want to remove this file?');
    await post(agent, page, form('documents', { intent: 'remove', slot: SLOT, attachmentId: png.attachmentId })).expect(303);
    expect((await agent.get(page)).text).not.toContain('bill.png');
    await upload(agent, page, samplePdf(), 'lease.pdf', 'application/pdf').expect(303);

    // Back twice keeps everything; going through again updates the same case.
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303);
    const back = await agent.get(page).expect(200);
    expect(screenOf(back.text)).toEqual(['RESIDENCY_STEP', 'questions']);
    expect(back.text).toContain('>I work in Oslo</textarea>');
    await agent.post(`${page}/back`).set('sec-fetch-site', 'same-origin').expect(303);
    const start = await agent.get(page).expect(200);
    expect(screenOf(start.text)).toEqual(['RESIDENCY_STEP', 'address']);
    expect(start.text).not.toContain('id="residency-dialog-screen"');
    expect(start.text).toMatch(/<option value="NO" selected="">Norway<\/option>/);
    await post(agent, page, form('address', { intent: 'address', ...address, city: 'Bergen', zipCode: '5003' })).expect(303);
    await post(agent, page, form('questions', { intent: 'questions', ...answers })).expect(303);
    const updated = await sandboxResidency(prospectId);
    expect(updated?.cases).toEqual([expect.objectContaining({ taskId, taskData: { ...address, city: 'Bergen', zipCode: '5003', ...answers } })]);
    expect((await agent.get(page)).text).toContain('lease.pdf');

    await post(agent, page, form('documents', { intent: 'finish' })).expect(303);
    expect(screenOf((await agent.get(page)).text)).toEqual(['TAX_INFO_STEP', 'liability']);
    const lease = (
      (await request(stack.sandboxUrl).get('/sandbox/storage/objects')).body as Array<{ taskId: string; attachmentId: string; fileName: string }>
    ).find((o) => o.taskId === taskId && o.fileName === 'lease.pdf')!;
    expect((await sandboxResidency(prospectId))?.residency).toEqual({
      ...address,
      city: 'Bergen',
      zipCode: '5003',
      questionsAndAnswers: [
        { question: 'applicationPurpose', answer: answers.applicationPurpose },
        { question: 'reasonForLivingAbroad', answer: answers.reasonForLivingAbroad },
        { question: 'durationAbroad', answer: answers.durationAbroad },
      ],
      attachments: [{ attachmentId: lease.attachmentId }],
      nnxTaskId: taskId,
    });
  });

  it('a refused submit shows which parts to check and stays on the documents', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toResidency(agent, 'residencyRefused');
    // The step opens on the RESIDENCY dialog: its Continue leads to the address.
    await post(agent, page, form('dialog', {})).expect(303);
    await post(agent, page, form('address', { intent: 'address', ...address })).expect(303);
    await post(agent, page, form('questions', { intent: 'questions', ...answers })).expect(303);
    await upload(agent, page, samplePng(), 'bill.png', 'image/png').expect(303);
    const refused = await post(agent, page, form('documents', { intent: 'finish' })).expect(400);
    expect(refused.text).toContain('We could not send your information. Check the following and try again: zip code, your answers');
    expect(screenOf(refused.text)).toEqual(['RESIDENCY_STEP', 'documents']);
    expect(refused.text).toContain('bill.png');
    expect((await sandboxResidency(prospectId))?.residency).toBeNull();
  });

  it('the shared HTTP answers walk the step, upload included, to the next step', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, prospectId } = await toResidency(agent, 'residency');
    let reachedTax = false;
    await answerStepsOverHttp(
      async () => {
        const html = (await agent.get(page).expect(200)).text;
        // The tax step is another step's business: stop there by answering milestone three's way out.
        reachedTax = screenOf(html)?.[0] === 'TAX_INFO_STEP';
        return reachedTax ? html.replace(/data-step="TAX_INFO_STEP"/, 'data-step="MILESTONE_THREE_STEP"') : html;
      },
      async (body) => void (await post(agent, page, body).expect(303)),
      async ({ fields, file }) => {
        let req = agent.post(`${page}/step`).set('sec-fetch-site', 'same-origin');
        for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
        await req.attach('file', file.bytes, { filename: file.name, contentType: file.contentType }).expect(303);
      },
    );
    expect(reachedTax).toBe(true);
    expect((await sandboxResidency(prospectId))?.residency).toMatchObject({ addressCountry: 'DE', attachments: [expect.any(Object)] });
  });
});
