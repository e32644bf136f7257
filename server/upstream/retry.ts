// Retries of upstream calls: file, case, citizenship and init-upload calls 10 times, 500 ms apart (customer-information
// §9); the routing status 14 times, 200 ms apart (identification-routing-creation §4). Only failures that may pass
// (network, 5xx, 408, 429, an unreadable answer) are tried again by default. Inside a request another try is made only
// while the request's deadline leaves time for it (server/infra/deadline.ts), so the tries end at the deadline.
import pRetry from 'p-retry';
import { deadlinePassed, UpstreamError } from './http.ts';
import { currentDeadline } from '../infra/deadline.ts';

export const FILE_CALL_ATTEMPTS = 10;

export function isRetryable(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) return false;
  return err.status === 0 || err.status >= 500 || err.status === 408 || err.status === 429 || (err.status >= 200 && err.status < 300);
}

/**
 * Calls `call` up to `attempts` times, `delayMs` apart, while `retryIf` judges the failure passing and the
 * request's deadline leaves time. Rejects with the last failure; with an UpstreamError of status 0 when the
 * deadline ended the tries some other way.
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  delayMs: number,
  attempts = FILE_CALL_ATTEMPTS,
  retryIf: (err: unknown) => boolean = isRetryable,
): Promise<T> {
  const deadline = currentDeadline();
  try {
    return await pRetry(() => call(), {
      retries: attempts - 1,
      factor: 1,
      minTimeout: delayMs,
      maxTimeout: delayMs,
      randomize: false,
      signal: deadline?.signal,
      // Waiting out the delay only to find the deadline gone would add time and no answer.
      shouldRetry: ({ error }) => retryIf(error) && (deadline === undefined || deadline.remaining() > delayMs),
    });
  } catch (err) {
    if (!(err instanceof UpstreamError) && deadline?.signal.aborted) throw deadlinePassed('retry', 'tries');
    throw err;
  }
}
