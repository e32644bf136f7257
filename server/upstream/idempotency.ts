// Shared by the brokerage client's parts: the Idempotency-Key of a call that creates something, and the schema of an
// answer whose body is not read.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyHeaderValue } from '../../shared/contracts/brokerageContract.ts';

/** An answer whose body the caller does not read (any JSON, or none). */
export const emptyAnswer = z.unknown();

/**
 * The Idempotency-Key of a call that creates something (shared/contracts/brokerageContract.ts): derived from the caller's
 * save attempt (kept in the session before the first try), the call and the exact body sent. A retry of the attempt
 * after a timeout sends the same key, so the brokerage answers what the first try created; other answers or another
 * attempt make another key, never a key reused with a different body.
 */
export function idempotencyHeaders(attempt: string, method: string, path: string, body: unknown): Record<string, string> {
  const digest = createHash('sha256')
    .update(`${attempt}\n${method} ${path}\n${JSON.stringify(body)}`)
    .digest('base64url');
  return { [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyHeaderValue(digest) };
}
