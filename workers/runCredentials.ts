// The brokerage calls of one job step made with a run's credentials, shared by the jobs that call the brokerage on the
// person's behalf (customer creation, KYC preparation). The credentials live sealed apart from the job data
// (server/infra/creationCredentials.ts): the web hands over the refresh token when it starts a run, the worker buys
// access tokens with it by the web's rule (shared/asPerson.ts), and the job removes them when the run ends.
import type { Logger } from 'pino';
import { asPerson, SessionEnded } from '../shared/asPerson.ts';
import type { CreationCredentials } from '../shared/creationJobContract.ts';

/** A run's credentials, sealed apart from the job data (one entry per prospect and run). */
export interface RunCredentialsPort {
  put(prospectId: string, runId: string, credentials: CreationCredentials): Promise<void>;
  get(prospectId: string, runId: string): Promise<CreationCredentials | null>;
  remove(prospectId: string, runId: string): Promise<void>;
}

/** The person's brokerage session cannot be renewed (refresh refused, or nothing to refresh with): no retry helps. */
export class CredentialsRefused extends Error {
  constructor(
    readonly reason: 'missing' | 'noRefreshToken' | 'refreshRefused',
    what = 'creation',
  ) {
    super(`${what} credentials refused: ${reason}`);
    this.name = 'CredentialsRefused';
  }
}

export interface AuthorisedCalls {
  /**
   * Makes brokerage call `name` with the run's access token. `refused` tells an answer that reports a 401
   * instead of throwing it. A call refused for its token is tried again once with a renewed token.
   */
  call<T>(name: string, fn: (jwt: string) => Promise<T>, refused?: (answer: T) => boolean): Promise<T>;
}

/**
 * The brokerage calls of one job step with the run's credentials, as the person (shared/asPerson.ts, the rule
 * the web follows too): a call answered 401 or EXPIRED_ACCESS_TOKEN (the access token has outlived its 30
 * minutes) renews the access token with the refresh token once, stores it for the run's next steps, and is
 * tried again once; calls running side by side share the renewal. Throws CredentialsRefused when the run has
 * no credentials or its brokerage session cannot be renewed; only ids are logged, never a token.
 */
export async function authoriseRun(
  deps: { refreshToken(refreshToken: string): Promise<{ jwt: string }>; credentials: RunCredentialsPort; log: Pick<Logger, 'info' | 'warn'>; what?: string },
  run: { prospectId: string; runId: string; attempt: number },
): Promise<AuthorisedCalls> {
  const { credentials } = deps;
  const stored = await credentials.get(run.prospectId, run.runId);
  if (!stored) throw new CredentialsRefused('missing', deps.what);
  const creds: CreationCredentials = { ...stored };
  const person = asPerson(
    { refreshToken: deps.refreshToken, log: deps.log, logFields: { prospectId: run.prospectId, runId: run.runId, attempt: run.attempt } },
    {
      read: () => creds,
      async keep(jwt) {
        creds.accessToken = jwt;
        await credentials.put(run.prospectId, run.runId, creds);
      },
    },
  );
  return {
    async call(name, fn, refused) {
      try {
        return await person.call(name, fn, refused);
      } catch (err) {
        if (err instanceof SessionEnded) throw new CredentialsRefused(err.reason, deps.what);
        throw err;
      }
    },
  };
}
