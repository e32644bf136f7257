// The brokerage calls of one job step made with a run's credentials, shared by the jobs that call the
// brokerage API on the person's behalf (workers/customerCreation.ts, workers/kycPreparation.ts).
//
// The credentials live sealed apart from the job data (server/infra/creationCredentials.ts): the web hands
// over the refresh token when it starts a run, the worker buys access tokens with it as the web does
// (identification-routing-creation §7: a 401 triggers a token refresh, the call is tried again once), and
// the job removes the credentials when the run ends.
import type { Logger } from 'pino';
import { UpstreamError } from '../shared/upstreamError.ts';
import type { CreationCredentials } from '../shared/creationJob.ts';

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

export const isUnauthorized = (err: unknown) => err instanceof UpstreamError && err.status === 401;

export interface AuthorisedCalls {
  /**
   * Makes a brokerage call with the run's access token. `refused` tells an answer that reports a 401
   * instead of throwing it. A call refused for its token is tried again once with a renewed token.
   */
  call<T>(fn: (jwt: string) => Promise<T>, refused?: (answer: T) => boolean): Promise<T>;
}

/**
 * The brokerage calls of one job step with the run's credentials. A call answered 401 (the access token
 * has outlived its 30 minutes) renews the access token with the refresh token once, stores it for the
 * run's next steps, and is tried again once; calls running side by side share the renewal. Throws
 * CredentialsRefused when the run has no credentials; only ids are logged, never a token.
 */
export async function authoriseRun(
  deps: { refreshToken(refreshToken: string): Promise<{ jwt: string }>; credentials: RunCredentialsPort; log: Pick<Logger, 'info' | 'warn'>; what?: string },
  run: { prospectId: string; runId: string; attempt: number },
): Promise<AuthorisedCalls> {
  const { credentials, log } = deps;
  const ctx = { prospectId: run.prospectId, runId: run.runId, attempt: run.attempt };
  const stored = await credentials.get(run.prospectId, run.runId);
  if (!stored) throw new CredentialsRefused('missing', deps.what);
  const creds: CreationCredentials = { ...stored };
  let renewal: Promise<void> | undefined;

  async function renew(): Promise<void> {
    if (!creds.refreshToken) throw new CredentialsRefused('noRefreshToken', deps.what);
    log.info(ctx, 'access token expired or absent: token refresh');
    let jwt: string;
    try {
      ({ jwt } = await deps.refreshToken(creds.refreshToken));
    } catch (err) {
      // A refused refresh token (the person's brokerage session has ended) will not work on a retry;
      // anything else (unreachable, 5xx) is transient and the queue retries the step.
      if (err instanceof UpstreamError && err.status >= 400 && err.status < 500) {
        log.warn({ ...ctx, httpStatus: err.status }, 'token refresh refused');
        throw new CredentialsRefused('refreshRefused', deps.what);
      }
      throw err;
    }
    creds.accessToken = jwt;
    await credentials.put(run.prospectId, run.runId, creds);
  }

  /** The token to send now; `stale` is the one a call was refused with (a sibling may have renewed it already). */
  async function token(stale?: string): Promise<string> {
    if (!creds.accessToken || creds.accessToken === stale) {
      renewal ??= renew().finally(() => (renewal = undefined));
      await renewal;
    }
    return creds.accessToken!;
  }

  return {
    async call<T>(fn: (jwt: string) => Promise<T>, refused: (answer: T) => boolean = () => false): Promise<T> {
      const sent = await token();
      try {
        const answer = await fn(sent);
        if (!refused(answer)) return answer;
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
      }
      return fn(await token(sent));
    },
  };
}
