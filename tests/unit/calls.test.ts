// The brokerage client bound to the person (customer-information §7 call wrapper,
// server/stages/customerInformation/calls.ts): the session's token is sent, an expired one is refreshed
// once per request however many calls run side by side, and what still fails maps to the page's error.
import { describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { brokerageForPerson, callErrorKind } from '../../server/stages/customerInformation/calls.ts';
import type { BrokerageClient } from '../../server/upstream/brokerageClient.ts';
import type { Journey } from '../../server/journey.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';
import { newJourney } from '../../server/journey.ts';

const expired = () => new UpstreamError('brokerage', 401, { code: 'EXPIRED_ACCESS_TOKEN' }, 'expired');
const logger = pino({ level: 'silent' });

/** A brokerage whose access tokens are valid only when listed in `valid`; milestones record the token sent. */
function fakeBrokerage(valid: Set<string>, refresh: () => Promise<{ jwt: string }>) {
  const sent: string[] = [];
  const client = {
    refreshToken: vi.fn(refresh),
    submitMilestone: vi.fn(async (jwt: string, _prospectId: string, _milestone: string) => {
      sent.push(jwt);
      if (!valid.has(jwt)) throw expired();
    }),
  };
  return { client: client as unknown as BrokerageClient, sent, refreshToken: client.refreshToken };
}

function journeyWith(tokens: { jwt: string; refreshToken?: string }): Journey {
  return { ...newJourney('SE'), ...tokens };
}

describe('brokerageForPerson', () => {
  it('sends the session token; the steps never pass one', async () => {
    const { client, sent } = fakeBrokerage(new Set(['a']), async () => ({ jwt: 'b' }));
    await brokerageForPerson(client, journeyWith({ jwt: 'a', refreshToken: 'r' }), logger).submitMilestone('p1', 'one');
    expect(sent).toEqual(['a']);
  });

  it('refreshes an expired token once for calls running side by side, keeps the new one in the session, and retries each call', async () => {
    const { client, sent, refreshToken } = fakeBrokerage(new Set(['b']), async () => ({ jwt: 'b' }));
    const journey = journeyWith({ jwt: 'a', refreshToken: 'r' });
    const brokerage = brokerageForPerson(client, journey, logger);
    await Promise.all([brokerage.submitMilestone('p1', 'one'), brokerage.submitMilestone('p1', 'two'), brokerage.submitMilestone('p1', 'three')]);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(journey.jwt).toBe('b');
    expect(sent.filter((t) => t === 'a')).toHaveLength(3);
    expect(sent.filter((t) => t === 'b')).toHaveLength(3);
  });

  it.each([
    ['no refresh token in the session', { jwt: 'a' }, async () => ({ jwt: 'b' })],
    ['the refresh itself failing', { jwt: 'a', refreshToken: 'r' }, async () => Promise.reject(new UpstreamError('brokerage', 400, undefined, 'bad refresh'))],
  ])('with %s the expiry is the error: session expired', async (_name, tokens, refresh) => {
    const { client } = fakeBrokerage(new Set(['b']), refresh);
    const error = await brokerageForPerson(client, journeyWith(tokens), logger)
      .submitMilestone('p1', 'one')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(callErrorKind(error)).toBe('SESSION_EXPIRED_ERROR');
  });

  it('an outage of the refresh itself is "try again", not an expired session', async () => {
    const { client } = fakeBrokerage(new Set(['b']), async () => Promise.reject(new UpstreamError('brokerage', 503, undefined, 'down')));
    const error = await brokerageForPerson(client, journeyWith({ jwt: 'a', refreshToken: 'r' }), logger)
      .submitMilestone('p1', 'one')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(callErrorKind(error)).toBe('TRY_AGAIN_ERROR');
  });

  it('refreshes on a 401 whatever its code, as routing and the jobs do (shared/asPerson.ts)', async () => {
    let first = true;
    const client = {
      refreshToken: vi.fn(async () => ({ jwt: 'b' })),
      submitMilestone: vi.fn(async (jwt: string) => {
        if (jwt === 'a' && first) {
          first = false;
          throw new UpstreamError('brokerage', 401, { code: 'INVALID_ACCESS_TOKEN' }, 'refused');
        }
      }),
    };
    const journey = journeyWith({ jwt: 'a', refreshToken: 'r' });
    await brokerageForPerson(client as unknown as BrokerageClient, journey, logger).submitMilestone('p1', 'one');
    expect(client.refreshToken).toHaveBeenCalledTimes(1);
    expect(client.submitMilestone.mock.calls.map((c) => c[0])).toEqual(['a', 'b']);
    expect(journey.jwt).toBe('b');
  });

  it.each([403, 400, 500])('passes a %i through without a refresh', async (status) => {
    const refused = new UpstreamError('brokerage', status, { code: 'SOMETHING' }, 'refused');
    const client = { refreshToken: vi.fn(), submitMilestone: vi.fn(async () => Promise.reject(refused)) };
    const person = brokerageForPerson(client as unknown as BrokerageClient, journeyWith({ jwt: 'a', refreshToken: 'r' }), logger);
    await expect(person.submitMilestone('p1', 'one')).rejects.toBe(refused);
    expect(client.refreshToken).not.toHaveBeenCalled();
  });
});

describe('callErrorKind (customer-information §7)', () => {
  it.each([
    [401, 'SESSION_EXPIRED_ERROR'],
    [403, 'SESSION_EXPIRED_ERROR'],
    [400, 'TRY_AGAIN_ERROR'],
    [500, 'TRY_AGAIN_ERROR'],
    [504, 'TRY_AGAIN_ERROR'],
  ])('%i → %s', (status, kind) => {
    expect(callErrorKind(new UpstreamError('brokerage', status, undefined, 'x'))).toBe(kind);
  });

  it('anything that is not an upstream answer → try again', () => {
    expect(callErrorKind(new Error('boom'))).toBe('TRY_AGAIN_ERROR');
  });
});
