// An entry value of 501–512 characters broke legacy signing after the regulation and the prospect were saved: the
// start page carried values of up to 512 characters, the legacy signature request's schema allows 500, so every "Sign
// agreements" ended on a 500 page. Over HTTP: a person who arrives with such a value (a tracking or campaign id, not one
// of ours to refuse the person for) signs as anyone else does; the value is dropped at entry, with a log line naming the
// parameter, never its value.
import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type Stack } from '../support/stack.ts';
import { screenOf } from '../support/customerInformation.ts';
import { identifyOverHttp } from '../support/journey.ts';
import { LEGACY_SIGN, legacyFormBody, postLegacy } from '../support/legacyForm.ts';

let stack: Stack;
let logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  stack = await startEmbeddedStack({ LOG_LEVEL: 'info' }, { logDestination: sink });
});
afterAll(async () => stack?.stop());
beforeEach(() => {
  logLines = [];
});

describe('An entry value of 501–512 characters breaks legacy signing after the regulation and the prospect were saved', () => {
  it.each([501, 512])('an entry value of %i characters: "Sign agreements" reaches the signing page; the value is dropped at entry', async (length) => {
    const agent = request.agent(stack.webUrl);
    const long = 'x'.repeat(length);
    await agent.get(`/onboarding?utm_campaign=${long}&utm_source=newsletter`).expect(200);
    const { page: entered, persona } = await identifyOverHttp(agent, stack.sandboxUrl, 'legacyFlow');
    const page = entered.split('?')[0]!;
    expect(screenOf((await agent.get(entered).expect(200)).text)).toEqual(['EXISTING_STEP', 'form']);

    await postLegacy(agent, page, legacyFormBody(persona, { phoneNumber: '070 123 45 67' })).expect(303);
    expect(screenOf((await agent.get(page).expect(200)).text)).toEqual(['EXISTING_STEP', 'review']);
    const signed = await postLegacy(agent, page, LEGACY_SIGN);
    expect(signed.status).toBe(303);
    expect(signed.headers.location).toMatch(new RegExp(`^${stack.sandboxUrl}/sandbox/signing/`));

    // Saved once each; the signing request carried the other entry value, without the one too long to send.
    const saved = (
      await request(stack.sandboxUrl)
        .get(`/sandbox/legacy?prospectId=${page.split('/').pop()}`)
        .expect(200)
    ).body as {
      regulations: unknown[];
      updates: unknown[];
      signatures: Array<{ queryParams: Record<string, string> }>;
    };
    expect([saved.regulations.length, saved.updates.length, saved.signatures.length]).toEqual([1, 1, 1]);
    expect(saved.signatures[0]!.queryParams).toEqual({ utm_source: 'newsletter' });

    // Dropped with a log line that names the parameter and its length, never the value.
    const dropped = logLines.filter((l) => l.includes('entry value dropped'));
    expect(dropped).toHaveLength(1);
    expect(JSON.parse(dropped[0]!)).toMatchObject({ dropped: [{ param: 'utm_campaign', length, reason: 'valueTooLong' }] });
    expect(dropped[0]).not.toContain(long);
  });
});
