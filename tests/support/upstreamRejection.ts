// The UpstreamError a client call rejects with, for assertions on its status and kind (the brokerage client tests).
import { UpstreamError } from '../../server/upstream/http.ts';

/** The UpstreamError `promise` rejects with; fails if it resolves or rejects with anything else. */
export async function upstreamRejection(promise: Promise<unknown>): Promise<UpstreamError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(err)}`);
  return err;
}
