// The call wrapper of customer-information.md §7: every brokerage call of the page goes through it.
// A 401 with code EXPIRED_ACCESS_TOKEN (the access token lives 30 minutes, a person may take longer) is
// logged as a token refresh: the session's refresh token buys a new access token once per request and
// the call is tried again. Whatever still fails is mapped to the page's error: 401/403 → session
// expired, anything else → try again. The error is per render, so the next call starts without one.
import type { Logger } from 'pino';
import type { BrokerageClient } from '../../upstream/brokerage.ts';
import { UpstreamError } from '../../upstream/http.ts';
import type { Journey } from '../../journey.ts';
import { EXPIRED_ACCESS_TOKEN, unauthorizedBody } from '../../../shared/contracts/brokerage.ts';

export type StepErrorKind = 'SESSION_EXPIRED_ERROR' | 'TRY_AGAIN_ERROR';

/** §7: 401/403 → session expired, anything else → try again. */
export function callErrorKind(err: unknown): StepErrorKind {
  return err instanceof UpstreamError && (err.status === 401 || err.status === 403) ? 'SESSION_EXPIRED_ERROR' : 'TRY_AGAIN_ERROR';
}

export function isExpiredAccessToken(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && err.status === 401 && unauthorizedBody.safeParse(err.body).data?.code === EXPIRED_ACCESS_TOKEN;
}

/**
 * The brokerage client for one request of the page. Step modules call it as they would the plain client,
 * passing the access token they were given; after a refresh, a token this request replaced is swapped
 * for the new one, so later calls of the same request do not expire again. The refresh token never
 * leaves the session and no token is logged.
 */
export function brokerageForRequest(brokerage: BrokerageClient, journey: Journey, logger: Logger): BrokerageClient {
  const replaced = new Set<string>();
  let refreshing: Promise<void> | undefined;
  const current = (arg: unknown) => (typeof arg === 'string' && replaced.has(arg) ? journey.jwt : arg);

  async function refresh(expired: string, call: string, cause: UpstreamError): Promise<void> {
    logger.info({ upstream: 'brokerage', call }, 'access token expired: token refresh');
    // A session from before refresh tokens were kept has nothing to refresh with: it has expired.
    if (!journey.refreshToken) throw cause;
    try {
      const { jwt } = await brokerage.refreshToken(journey.refreshToken);
      replaced.add(expired);
      journey.jwt = jwt;
    } catch (err) {
      logger.warn({ upstream: 'brokerage', call, status: err instanceof UpstreamError ? err.status : undefined }, 'token refresh failed');
      throw cause;
    }
  }

  return new Proxy(brokerage, {
    get(target, prop, receiver) {
      const member: unknown = Reflect.get(target, prop, receiver);
      if (typeof member !== 'function' || prop === 'refreshToken') return member;
      return async (...args: unknown[]) => {
        const [first, ...rest] = args;
        const sent = current(first);
        try {
          return await member.apply(target, [sent, ...rest]);
        } catch (err) {
          // Only the person's own token can be refreshed (other first arguments are not tokens).
          if (!isExpiredAccessToken(err) || typeof sent !== 'string' || (sent !== journey.jwt && !replaced.has(sent))) throw err;
          // Calls running side by side share one refresh.
          if (sent === journey.jwt) await (refreshing ??= refresh(sent, String(prop), err));
          return await member.apply(target, [journey.jwt, ...rest]);
        }
      };
    },
  });
}
