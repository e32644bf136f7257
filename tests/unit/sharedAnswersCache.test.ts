// Brokerage answers kept a while per web process (server/infra/sharedAnswersCache.ts) behind the person's call wrapper
// (server/stages/customerInformation/calls.ts): the account picker's agreement bundles, the legacy form's questionnaire
// and an application's contact related data are asked once per key within the lifetime, again after it, never kept when
// they fail.
import { describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { brokerageForPerson } from '../../server/stages/customerInformation/calls.ts';
import { createSharedAnswers } from '../../server/infra/sharedAnswersCache.ts';
import type { BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import { newJourney, type Journey } from '../../server/journey.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';

const logger = pino({ level: 'silent' });
const person = (jwt: string): Journey => ({ ...newJourney('SE'), jwt, refreshToken: 'r' });

function fakeBrokerage() {
  const client = {
    refreshToken: vi.fn(async () => ({ jwt: 'renewed' })),
    agreementBundles: vi.fn(async (_jwt: string, query: { pdf_id: string; lang: string }) => [
      { title: `${query.pdf_id} ${query.lang}`, url: 'https://example.test/a.pdf' },
    ]),
    questionnaire: vi.fn(async (_jwt: string, id: number, language: string) => ({ questionnaire_id: id, language, questions: [] })),
    contactRelatedData: vi.fn(async (_jwt: string, prospectId: string) => ({ email: `${prospectId}@example.test` })),
  };
  return { client, brokerage: client as unknown as BrokerageClient };
}

describe('shared answers cache', () => {
  it('asks for agreement bundles once per document, market and language within the lifetime, for any person, and again after it', async () => {
    let now = 1_000;
    const shared = createSharedAnswers({ ttlMs: 60_000, now: () => now });
    const { client, brokerage } = fakeBrokerage();
    const query = { pdf_id: 'ATYID_125', country: 'SE' as const, lang: 'sv' };
    const first = await brokerageForPerson(brokerage, person('a'), logger, shared).agreementBundles(query);
    // Another request (another person) in the lifetime: the same answer, no call.
    expect(await brokerageForPerson(brokerage, person('b'), logger, shared).agreementBundles(query)).toEqual(first);
    expect(client.agreementBundles).toHaveBeenCalledTimes(1);
    // Another key is its own answer.
    await brokerageForPerson(brokerage, person('b'), logger, shared).agreementBundles({ ...query, lang: 'en' });
    expect(client.agreementBundles).toHaveBeenCalledTimes(2);
    now += 60_001;
    await brokerageForPerson(brokerage, person('c'), logger, shared).agreementBundles(query);
    expect(client.agreementBundles).toHaveBeenCalledTimes(3);
    expect(client.agreementBundles.mock.calls[2]![0]).toBe('c');
  });

  it("asks for an application's contact related data once per prospect within the lifetime, and again after it", async () => {
    let now = 1_000;
    const shared = createSharedAnswers({ ttlMs: 60_000, now: () => now });
    const { client, brokerage } = fakeBrokerage();
    const ask = (prospectId: string) => brokerageForPerson(brokerage, person('a'), logger, shared).contactRelatedData(prospectId);
    expect(await ask('p1')).toEqual({ email: 'p1@example.test' });
    await ask('p1');
    expect(await ask('p2')).toEqual({ email: 'p2@example.test' });
    expect(client.contactRelatedData.mock.calls.map((c) => c[1])).toEqual(['p1', 'p2']);
    now += 60_001;
    await ask('p1');
    expect(client.contactRelatedData.mock.calls.map((c) => c[1])).toEqual(['p1', 'p2', 'p1']);
  });

  it('asks for the questionnaire once per id and Accept-Language within the lifetime, and again after it', async () => {
    let now = 5_000;
    const shared = createSharedAnswers({ ttlMs: 1_000, now: () => now });
    const { client, brokerage } = fakeBrokerage();
    const ask = (language: string) => brokerageForPerson(brokerage, person('a'), logger, shared).questionnaire(8, language);
    await ask('sv-SE');
    await ask('sv-SE');
    await ask('sv-FI');
    expect(client.questionnaire.mock.calls.map((c) => c[2])).toEqual(['sv-SE', 'sv-FI']);
    now += 999;
    await ask('sv-SE');
    expect(client.questionnaire).toHaveBeenCalledTimes(2);
    now += 2;
    await ask('sv-SE');
    expect(client.questionnaire.mock.calls.map((c) => c[2])).toEqual(['sv-SE', 'sv-FI', 'sv-SE']);
  });

  it('keeps no failure: the next request asks again', async () => {
    const shared = createSharedAnswers({ ttlMs: 60_000 });
    const { client, brokerage } = fakeBrokerage();
    client.questionnaire.mockRejectedValueOnce(new UpstreamError('brokerage', 502, {}, 'bad gateway'));
    const ask = () => brokerageForPerson(brokerage, person('a'), logger, shared).questionnaire(8, 'en-SE');
    await expect(ask()).rejects.toBeInstanceOf(UpstreamError);
    await expect(ask()).resolves.toMatchObject({ questionnaire_id: 8 });
    await ask();
    expect(client.questionnaire).toHaveBeenCalledTimes(2);
  });

  it('with a lifetime of 0 asks every time', async () => {
    const shared = createSharedAnswers({ ttlMs: 0 });
    const { client, brokerage } = fakeBrokerage();
    for (let i = 0; i < 3; i++) await brokerageForPerson(brokerage, person('a'), logger, shared).questionnaire(8, 'en-SE');
    expect(client.questionnaire).toHaveBeenCalledTimes(3);
  });

  it('keeps at most max answers, dropping the least recently used', async () => {
    const shared = createSharedAnswers({ ttlMs: 60_000, max: 2 });
    const { client, brokerage } = fakeBrokerage();
    const ask = (language: string) => brokerageForPerson(brokerage, person('a'), logger, shared).questionnaire(8, language);
    await ask('sv-SE');
    await ask('nb-NO');
    await ask('sv-SE');
    await ask('da-DK');
    await ask('sv-SE');
    await ask('nb-NO');
    expect(client.questionnaire.mock.calls.map((c) => c[2])).toEqual(['sv-SE', 'nb-NO', 'da-DK', 'nb-NO']);
  });
});
