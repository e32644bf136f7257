// §9: file, case, citizenship and init-upload calls are tried 10 times, 500 ms apart. Only failures that
// may pass (network, 5xx, 408, 429, an unreadable answer) are tried again; a 4xx is the same next time.
import pRetry, { AbortError } from 'p-retry';
import { UpstreamError } from './http.ts';

export const FILE_CALL_ATTEMPTS = 10;

export function isRetryable(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) return false;
  return err.status === 0 || err.status >= 500 || err.status === 408 || err.status === 429 || (err.status >= 200 && err.status < 300);
}

export async function withRetries<T>(call: () => Promise<T>, delayMs: number, attempts = FILE_CALL_ATTEMPTS): Promise<T> {
  return pRetry(
    async () => {
      try {
        return await call();
      } catch (err) {
        if (!isRetryable(err)) throw new AbortError(err as Error);
        throw err;
      }
    },
    { retries: attempts - 1, factor: 1, minTimeout: delayMs, maxTimeout: delayMs, randomize: false },
  );
}
