// Calling the brokerage as the person (shared/asPerson.ts), the one rule of the web and the workers: which
// failures a token refresh can cure (identification-routing-creation §7: a 401; customer-information §7:
// EXPIRED_ACCESS_TOKEN), one refresh and one more try, a session that cannot be renewed as a 401 and an
// outage as itself, the renewed token kept by the holder, and no token in any log line.
import { describe, expect, it, vi } from 'vitest';
import { asPerson, refreshCures, SessionEnded, type PersonTokens } from '../../shared/asPerson.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';
import { currentDeadline, withDeadline, type Deadline } from '../../server/infra/deadline.ts';
import { deadlinePassed } from '../../server/upstream/http.ts';

const upstream = (status: number, body?: unknown) => new UpstreamError('brokerage', status, body, `brokerage answered ${status}`);

function setup(tokens: PersonTokens, refresh: (token: string) => Promise<{ jwt: string }> = async () => ({ jwt: 'fresh' })) {
  const lines: Array<{ fields: object; msg: string }> = [];
  const log = { info: (fields: object, msg: string) => lines.push({ fields, msg }), warn: (fields: object, msg: string) => lines.push({ fields, msg }) };
  const kept: string[] = [];
  const refreshToken = vi.fn(refresh);
  const person = asPerson(
    { refreshToken, log, logFields: { prospectId: 'p1' } },
    {
      read: () => tokens,
      keep: (jwt) => {
        kept.push(jwt);
        tokens.accessToken = jwt;
      },
    },
  );
  /** Every log line as text: no token may be in it. */
  const logged = () => JSON.stringify(lines);
  return { person, refreshToken, kept, lines, logged };
}

/** A call failing with `failure` for the token 'old' and answering 'ok' for any other. */
function callFailingWith(failure: unknown) {
  return vi.fn(async (jwt: string) => {
    if (jwt === 'old') throw failure;
    return 'ok';
  });
}

describe('the trigger: which failures a token refresh can cure', () => {
  it.each([
    ['401 EXPIRED_ACCESS_TOKEN', upstream(401, { code: 'EXPIRED_ACCESS_TOKEN' }), true],
    ['401 with another code', upstream(401, { code: 'INVALID_ACCESS_TOKEN' }), true],
    ['401 without a body', upstream(401), true],
    ['EXPIRED_ACCESS_TOKEN on another status', upstream(403, { code: 'EXPIRED_ACCESS_TOKEN' }), true],
    ['403', upstream(403, { code: 'FORBIDDEN' }), false],
    ['400', upstream(400, { data: { fields: ['email'] } }), false],
    ['404', upstream(404), false],
    ['409', upstream(409), false],
    ['429', upstream(429), false],
    ['500', upstream(500), false],
    ['503', upstream(503), false],
    ['timeout or unreachable (status 0)', upstream(0), false],
    ['the request deadline passed', deadlinePassed('brokerage', 'GET /x'), false],
    ['not an upstream answer', new TypeError('boom'), false],
  ])('%s → refresh: %s', async (_name, failure, refreshes) => {
    expect(refreshCures(failure)).toBe(refreshes);
    const { person, refreshToken, kept } = setup({ accessToken: 'old', refreshToken: 'r' });
    const fn = callFailingWith(failure);
    const outcome = await person.call('x', fn).catch((e: unknown) => e);
    if (refreshes) {
      // Refreshed once, kept, and the call tried once more with the new token.
      expect(outcome).toBe('ok');
      expect(refreshToken.mock.calls).toEqual([['r']]);
      expect(kept).toEqual(['fresh']);
      expect(fn.mock.calls.map((c) => c[0])).toEqual(['old', 'fresh']);
    } else {
      // Passed through as it is: one call, no refresh.
      expect(outcome).toBe(failure);
      expect(refreshToken).not.toHaveBeenCalled();
      expect(fn).toHaveBeenCalledTimes(1);
    }
  });
});

describe('asPerson', () => {
  it('calls running side by side share one refresh; the renewed token is kept for the later calls', async () => {
    const tokens: PersonTokens = { accessToken: 'old', refreshToken: 'r' };
    const { person, refreshToken, kept } = setup(tokens);
    const fn = callFailingWith(upstream(401, { code: 'EXPIRED_ACCESS_TOKEN' }));
    expect(await Promise.all([person.call('a', fn), person.call('b', fn), person.call('c', fn)])).toEqual(['ok', 'ok', 'ok']);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(kept).toEqual(['fresh']);
    await person.call('d', fn);
    expect(fn.mock.calls.map((c) => c[0])).toEqual(['old', 'old', 'old', 'fresh', 'fresh', 'fresh', 'fresh']);
    expect(refreshToken).toHaveBeenCalledTimes(1);
  });

  it('refreshes at most once: a renewed token that is refused too is the 401, not another refresh', async () => {
    const { person, refreshToken } = setup({ accessToken: 'old', refreshToken: 'r' });
    const refused = upstream(401, { code: 'EXPIRED_ACCESS_TOKEN' });
    const fn = vi.fn(async () => Promise.reject(refused));
    await expect(person.call('x', fn)).rejects.toBe(refused);
    await expect(person.call('y', fn)).rejects.toBe(refused);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    // x: old, then fresh; y: fresh only (nothing left to renew it with).
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['400', upstream(400)],
    ['401', upstream(401, { code: 'INVALID_REFRESH_TOKEN' })],
    ['403', upstream(403)],
  ])('a refresh refused with a %s: the session has ended (a 401: session expired)', async (_name, refusal) => {
    const { person, lines, refreshToken } = setup({ accessToken: 'old', refreshToken: 'r' }, async () => Promise.reject(refusal));
    const error = await person.call('x', callFailingWith(upstream(401))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionEnded);
    expect(error).toMatchObject({ status: 401, reason: 'refreshRefused' });
    expect(lines.map((l) => l.msg)).toEqual(['access token expired: token refresh', 'token refresh failed']);
    // The request's other calls find the session ended too, without asking again.
    await expect(person.call('y', callFailingWith(upstream(401)))).rejects.toBeInstanceOf(SessionEnded);
    expect(refreshToken).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['500', upstream(500)],
    ['503', upstream(503)],
    ['429', upstream(429)],
    ['408', upstream(408)],
    ['timeout (status 0)', upstream(0)],
  ])('a refresh failing with a %s is that failure (try again), not an ended session', async (_name, outage) => {
    const { person } = setup({ accessToken: 'old', refreshToken: 'r' }, async () => Promise.reject(outage));
    const error = await person.call('x', callFailingWith(upstream(401))).catch((e: unknown) => e);
    expect(error).toBe(outage);
    expect(error).not.toBeInstanceOf(SessionEnded);
  });

  it('a refresh that failed is asked again by a later try (the routing status is retried), and then kept', async () => {
    let down = true;
    const { person, refreshToken } = setup({ accessToken: 'old', refreshToken: 'r' }, async () => {
      if (down) throw upstream(503);
      return { jwt: 'fresh' };
    });
    const fn = callFailingWith(upstream(401));
    await expect(person.call('x', fn)).rejects.toMatchObject({ status: 503 });
    down = false;
    expect(await person.call('x', fn)).toBe('ok');
    expect(await person.call('y', fn)).toBe('ok');
    expect(refreshToken).toHaveBeenCalledTimes(2);
  });

  it('without a refresh token an expired access token is an ended session, and no refresh is asked', async () => {
    const { person, refreshToken } = setup({ accessToken: 'old' });
    await expect(person.call('x', callFailingWith(upstream(401)))).rejects.toMatchObject({ status: 401, reason: 'noRefreshToken' });
    expect(refreshToken).not.toHaveBeenCalled();
  });

  it('without an access token (a run handed only the refresh token) it buys one first', async () => {
    const { person, refreshToken } = setup({ refreshToken: 'r' });
    const fn = callFailingWith(upstream(401));
    expect(await person.call('x', fn)).toBe('ok');
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(fn.mock.calls.map((c) => c[0])).toEqual(['fresh']);
  });

  it('an answer that reports a 401 (`refused`) is refreshed the same way; when nothing helps the answer is returned', async () => {
    const { person, refreshToken } = setup({ accessToken: 'old', refreshToken: 'r' });
    const fn = vi.fn(async (jwt: string) => ({ httpStatus: jwt === 'old' ? 401 : 200 }));
    expect(await person.call('status', fn, (a) => a.httpStatus === 401)).toEqual({ httpStatus: 200 });
    expect(refreshToken).toHaveBeenCalledTimes(1);

    const always = vi.fn(async () => ({ httpStatus: 401 }));
    expect(await person.call('status', always, (a) => a.httpStatus === 401)).toEqual({ httpStatus: 401 });
  });

  it('logs the call and the ids, never a token', async () => {
    const { person, lines, logged } = setup({ accessToken: 'old-secret-token', refreshToken: 'refresh-secret-token' }, async () => ({
      jwt: 'fresh-secret-token',
    }));
    await person.call('submitMilestone', async (jwt) => {
      if (jwt === 'old-secret-token') throw upstream(401, { code: 'EXPIRED_ACCESS_TOKEN' });
    });
    expect(lines).toEqual([{ fields: { upstream: 'brokerage', prospectId: 'p1', call: 'submitMilestone' }, msg: 'access token expired: token refresh' }]);
    expect(logged()).not.toMatch(/secret-token/);
  });

  it("inside a request the refresh and the second try run under the request's own deadline", async () => {
    const seen: Array<Deadline | undefined> = [];
    const { person } = setup({ accessToken: 'old', refreshToken: 'r' }, async () => {
      seen.push(currentDeadline());
      return { jwt: 'fresh' };
    });
    await withDeadline(60_000, async () => {
      const deadline = currentDeadline();
      await person.call('x', async (jwt) => {
        seen.push(currentDeadline());
        if (jwt === 'old') throw upstream(401);
      });
      expect(seen).toHaveLength(3);
      for (const d of seen) expect(d).toBe(deadline);
    });
  });
});
