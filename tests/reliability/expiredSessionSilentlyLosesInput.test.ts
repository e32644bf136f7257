// An expired session sent the person to the start page without a word, losing what they typed. Now (customer-information
// §7, §8) mid-step, mid-KYC and mid-legacy form, with the brokerage session over, the page says "Your session has
// expired" with the way to identify again, and what the post typed is kept: identifying again as the same person shows
// it again. A KYC run that finds the session ended says so too. When our own session is gone (idle past
// SESSION_TTL_MINUTES), the post is told the same; what it carried cannot be kept.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { httpAnswers, screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp, postStep } from '../support/journey.ts';

type Agent = ReturnType<typeof request.agent>;

const SESSION_EXPIRED = 'Your session has expired. Please exit the session and try again.';
const TRY_AGAIN_TITLE = 'Something went wrong';
/** The way to identify again: choosing Private again, as the start page's card posts it. */
const IDENTIFY_AGAIN =
  /<form[^>]*action="\/onboarding\/customer-type"[^>]*>(?:(?!<\/form>)[\s\S])*<button(?=[^>]*name="customerType")(?=[^>]*value="private")[^>]*>Identify again<\/button>/;

let stack: Stack;
beforeAll(async () => {
  // kycBusyForever's starts 100 ms apart: the run is still waiting when the session ends.
  stack = await startEmbeddedStack({ KYC_START_INTERVAL_MS: '100' });
});
afterAll(async () => stack?.stop());

/** The person's brokerage session ends: access and refresh tokens expired. */
const endBrokerageSession = async (nationalId: string) =>
  expect((await request(stack.sandboxUrl).post('/sandbox/sessions/expire').send({ nationalId, refresh: true }).expect(200)).body.expired).toBeGreaterThan(0);

function expectSessionExpired(html: string): void {
  expect(html.includes(SESSION_EXPIRED), 'the session-expired text').toBe(true);
  expect(IDENTIFY_AGAIN.test(html), 'the way to identify again').toBe(true);
  expect(html.includes(TRY_AGAIN_TITLE), 'no "Something went wrong"').toBe(false);
}

/** The page once the KYC loader has gone. */
async function pastLoader(agent: Agent, page: string): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const html = (await agent.get(page)).text;
    if (screenOf(html)?.[1] !== 'loader') return html;
    if (Date.now() > until) throw new Error('still on the KYC loader after 20 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the brokerage session ends while the person is on the page', () => {
  it('mid-step: the contact post says the session expired, and identifying again shows the typed e-mail', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'contactInformation');
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    await endBrokerageSession(persona.nationalId);

    const posted = await postStep(
      agent,
      page,
      'step=CONTACT_INFORMATION_STEP&screen=contact&phonePrefix=46&phone=%2B46%2070%20123%2045%2067&email=kept%40example.com',
    );
    expect(posted.status).not.toBe(303);
    expectSessionExpired(posted.text);
    expect(posted.text.includes('value="kept@example.com"'), 'the typed e-mail on the page').toBe(true);

    // Identify again (the banner's button posts customerType=private), as the same person.
    const again = await identifyOverHttp(agent, stack.sandboxUrl, 'contactInformation');
    const shown = (await agent.get(again.page).expect(200)).text;
    expect(screenOf(shown)).toEqual(['CONTACT_INFORMATION_STEP', 'contact']);
    expect(shown.includes('value="kept@example.com"'), 'the typed e-mail after identifying again').toBe(true);
    expect(shown).not.toContain(SESSION_EXPIRED);
  });

  it('mid-legacy form: the post says the session expired, and identifying again shows the typed e-mail', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
    const form = page.split('?')[0]!;
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['EXISTING_STEP', 'form']);
    await endBrokerageSession(persona.nationalId);

    const posted = await agent
      .post(`${form}/step?shouldUseLegacyFlow=true`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('step=EXISTING_STEP&screen=form&accounts=DEP_SE&phoneNumber=%2B46%2070%20123%2045%2067&email=legacy-kept%40example.com&intent=sign');
    expect(posted.status).not.toBe(303);
    expectSessionExpired(posted.text);

    const again = await identifyOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
    const shown = (await agent.get(again.page).expect(200)).text;
    expect(screenOf(shown)).toEqual(['EXISTING_STEP', 'form']);
    expect(shown.includes('value="legacy-kept@example.com"'), 'the typed e-mail after identifying again').toBe(true);
  });

  it('mid-KYC: an answer post says the session expired', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'kyc');
    const html = await pastLoader(agent, page);
    expect(screenOf(html)).toEqual(['KYC_STEP', 'question']);
    await endBrokerageSession(persona.nationalId);
    const posted = await postStep(agent, page, httpAnswers.KYC_STEP!('question', html) as string);
    expect(posted.status).not.toBe(303);
    expectSessionExpired(posted.text);
  });

  it('a KYC run whose session has ended says so, not "Something went wrong" with a Try again that loops', async () => {
    const agent = request.agent(stack.webUrl);
    const { page, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'kycBusyForever');
    // The run waits for the answer session (409 every 100 ms) when the session ends.
    await endBrokerageSession(persona.nationalId);
    const html = await pastLoader(agent, page);
    expect(screenOf(html)?.[0]).toBe('KYC_STEP');
    expectSessionExpired(html);
    expect(html).not.toContain('>Try again</button>');
  });
});

describe('our own session is gone (forgotten after SESSION_TTL_MINUTES idle)', () => {
  it('a post with the forgotten session cookie is told the session expired, not sent silently to the start page', async () => {
    const agent = request.agent(stack.webUrl);
    const { page } = await identifyOverHttp(agent, stack.sandboxUrl, 'contactInformation');
    const access = { domain: '127.0.0.1', path: '/', secure: false, script: false } as Parameters<Agent['jar']['getCookie']>[1];
    const forgotten = agent.jar.getCookie('onb.sid', access)!.value;
    // Exit ends the session on the server, as the idle timeout does; the browser still has the cookie.
    await agent.post(`${page}/exit`).set('sec-fetch-site', 'same-origin').expect(303);

    const posted = await request(stack.webUrl)
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .set('cookie', `onb.sid=${forgotten}`)
      .type('form')
      .send('step=CONTACT_INFORMATION_STEP&screen=contact&phonePrefix=46&phone=%2B46%2070%20123%2045%2067&email=lost%40example.com');
    expect(posted.status).not.toBe(303);
    expectSessionExpired(posted.text);
    // Nothing of what the post carried is shown to whoever uses this browser next.
    expect(posted.text).not.toContain('lost@example.com');

    // A visitor without any session cookie is simply sent to the start page.
    await request(stack.webUrl)
      .post(`${page}/step`)
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send('step=CONTACT_INFORMATION_STEP')
      .expect(303)
      .expect('location', '/onboarding');
  });
});
