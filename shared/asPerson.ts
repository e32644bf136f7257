// Calling the brokerage as the person: the one rule for the web and the workers. When the brokerage refuses the access
// token (a 401, or code EXPIRED_ACCESS_TOKEN; identification-routing-creation §7, customer-information §7) the refresh
// token buys a new one once, the holder keeps it, and the call is tried once more; what still fails reaches the caller as
// an UpstreamError (a session that cannot be renewed is a 401, an outage keeps its status). No I/O: the refresh call,
// where the tokens live and the log are the caller's ports; only the call's name and the caller's ids are logged.
import { EXPIRED_ACCESS_TOKEN, unauthorizedBody } from './contracts/brokerageContract.ts';
import { UpstreamError } from './upstreamError.ts';

/** The failure a token refresh can cure: a 401, or the spec's EXPIRED_ACCESS_TOKEN code whatever the status. */
export function refreshCures(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && (err.status === 401 || unauthorizedBody.safeParse(err.body).data?.code === EXPIRED_ACCESS_TOKEN);
}

/**
 * A refresh answered with a refusal (a 4xx other than 408 and 429): the person's brokerage session has ended,
 * and no retry changes that. Anything else (unreachable, 5xx, a timeout, throttling) may pass: try again.
 */
function refreshRefused(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
}

/**
 * The person's brokerage session cannot be renewed: there is no refresh token, or the brokerage refused it.
 * A 401, so that every caller reads it as the ended session it is (customer-information §7: session expired).
 */
export class SessionEnded extends UpstreamError {
  constructor(
    readonly reason: 'noRefreshToken' | 'refreshRefused',
    refusal?: UpstreamError,
  ) {
    super('brokerage', 401, refusal?.body, `brokerage session ended: ${reason}`);
    this.name = 'SessionEnded';
  }
}

/** The person's tokens: the 30-minute access token the calls send, the refresh token that renews it. */
export interface PersonTokens {
  accessToken?: string;
  refreshToken?: string;
}

/** Where the person's tokens live: the web session, or a run's sealed credentials. */
export interface TokenHolder {
  read(): PersonTokens;
  /** Keeps a renewed access token for the calls after this one (this request's, the run's next steps). */
  keep(accessToken: string): void | Promise<void>;
}

export interface AsPersonDeps {
  refreshToken(refreshToken: string): Promise<{ jwt: string }>;
  log: { info(fields: object, msg: string): void; warn(fields: object, msg: string): void };
  /** Ids that name the person's work in the log lines (a prospect, a run); never a token. */
  logFields?: Record<string, unknown>;
}

export interface AsPerson {
  /**
   * Makes call `name` with the person's access token. `refused` tells an answer that reports a 401 instead of
   * throwing it (the creation status); such an answer is returned as it is when a refresh cannot help.
   */
  call<T>(name: string, fn: (jwt: string) => Promise<T>, refused?: (answer: T) => boolean): Promise<T>;
}

/**
 * The calls of one request (web) or one job step (worker) as the person. However many of its calls run side by
 * side, they share one refresh, and there is at most one that succeeds: a token just bought that is refused too
 * means the session has ended, which another refresh would not change. No token is ever logged.
 */
export function asPerson(deps: AsPersonDeps, holder: TokenHolder): AsPerson {
  const fields = { upstream: 'brokerage', ...deps.logFields };
  let refreshing: Promise<string> | undefined;

  async function refresh(name: string): Promise<string> {
    deps.log.info({ ...fields, call: name }, 'access token expired: token refresh');
    const { refreshToken } = holder.read();
    if (!refreshToken) throw new SessionEnded('noRefreshToken');
    let jwt: string;
    try {
      ({ jwt } = await deps.refreshToken(refreshToken));
    } catch (err) {
      deps.log.warn({ ...fields, call: name, status: err instanceof UpstreamError ? err.status : undefined }, 'token refresh failed');
      if (refreshRefused(err)) throw new SessionEnded('refreshRefused', err);
      throw err;
    }
    await holder.keep(jwt);
    return jwt;
  }

  /** The token to try again with after `sent` was refused; undefined when a refresh cannot help. */
  async function renewed(name: string, sent: string | undefined): Promise<string | undefined> {
    const current = holder.read().accessToken;
    // Renewed meanwhile (a call running alongside): use that one.
    if (current !== undefined && current !== sent) return current;
    if (!refreshing) {
      refreshing = refresh(name);
      // A refresh that failed for an outage bought nothing: a later try (the routing status's next one) may
      // refresh again. A refused one means the session has ended, for this request's other calls as well.
      refreshing.catch((err: unknown) => {
        if (!(err instanceof SessionEnded)) refreshing = undefined;
      });
      return refreshing;
    }
    const jwt = await refreshing;
    return jwt === sent ? undefined : jwt;
  }

  return {
    async call<T>(name: string, fn: (jwt: string) => Promise<T>, refused: (answer: T) => boolean = () => false): Promise<T> {
      // A run handed only the refresh token (and a session without an access token) begins by buying one.
      const sent = holder.read().accessToken ?? (await renewed(name, undefined));
      if (sent === undefined) throw new SessionEnded('noRefreshToken');
      let failure: () => T;
      try {
        const answer = await fn(sent);
        if (!refused(answer)) return answer;
        failure = () => answer;
      } catch (err) {
        if (!refreshCures(err)) throw err;
        failure = () => {
          throw err;
        };
      }
      const again = await renewed(name, sent);
      return again === undefined ? failure() : fn(again);
    },
  };
}
