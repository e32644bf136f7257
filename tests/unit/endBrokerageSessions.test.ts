// Ending the person's brokerage sessions (server/endJourney.ts) on Exit or a new identification: the person
// waits at most LOGOUT_WAIT_MS, and what is left of the logout goes on in the background with the calls' own
// timeouts, never under the request's deadline, which would cut it off after the person has gone.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { endBrokerageSessions } from '../../server/endJourney.ts';
import { currentDeadline, withDeadline } from '../../server/infra/deadline.ts';
import type { AppDeps } from '../../server/deps.ts';

describe('endBrokerageSessions', () => {
  it("makes the logout and refresh calls outside the request's deadline", async () => {
    const deadlines: unknown[] = [];
    const brokerage = {
      async logout() {
        deadlines.push(currentDeadline());
      },
      async refreshToken() {
        deadlines.push(currentDeadline());
        return { jwt: 'fresh' };
      },
    };
    const deps = { brokerage, logger: pino({ level: 'silent' }), config: { UPSTREAM_TIMEOUT_MS: 10_000 } } as unknown as Pick<
      AppDeps,
      'brokerage' | 'logger' | 'config'
    >;
    await withDeadline(60_000, async () => {
      expect(currentDeadline()).toBeDefined();
      await endBrokerageSessions(deps, { jwt: 'a', refreshToken: 'r' }, 'exit');
    });
    // logout with the access token, the refresh that shows the session alive, the logout with the fresh token.
    expect(deadlines).toEqual([undefined, undefined, undefined]);
  });
});
