// Saving that survives a timeout: a call that creates something upstream (a regulation, a signing
// session) may complete there after our client gave up. Each save is an attempt kept in the session before its first
// call; the calls' Idempotency-Keys derive from it (server/upstream/brokerageClient.ts), so the next Sign repeats them under
// the same keys and the brokerage answers what the first try created (shared/contracts/brokerageContract.ts IDEMPOTENCY_KEY_HEADER).
import { createHash, randomUUID } from 'node:crypto';
import type { LegacyFormState, LegacySaveAttempt } from '../../journey.ts';
import type { RegulationRequest } from '../../../shared/contracts/legacyContract.ts';
import { regulationOutcome, type LegacyFormAnswers } from '../../../shared/legacyProspect.ts';
import type { PersonBrokerage } from './calls.ts';

/**
 * The legacy form's save attempt for the answers (customer-information §4.9): the one already begun for the same
 * answers, else a new one, which the caller keeps in the session before any call. An earlier attempt whose regulation
 * call was never answered (it timed out, and may have completed upstream) is repeated first under its own key, so its
 * regulation is found and the new attempt updates it (regulationId) instead of creating a second one. The signature
 * request's key derives from the attempt and its body, so another language or return URL is another signing.
 */
export async function legacySaveAttempt(
  brokerage: Pick<PersonBrokerage, 'createRegulation'>,
  state: LegacyFormState | undefined,
  answers: LegacyFormAnswers,
  regulationWith: (regulationId: string | null) => RegulationRequest,
): Promise<{ attempt: LegacySaveAttempt; regulationId?: string }> {
  const of = createHash('sha256').update(JSON.stringify(answers)).digest('base64url');
  const earlier = state?.saveAttempt;
  if (earlier?.of === of) return { attempt: earlier };
  let regulationId = state?.regulationId;
  if (earlier && !earlier.regulationAnswered) {
    const found = regulationOutcome(await brokerage.createRegulation(earlier.regulation, earlier.id));
    if (found.kind === 'success') regulationId = found.regulationId;
  }
  const attempt: LegacySaveAttempt = { id: randomUUID(), of, regulation: regulationWith(regulationId ?? null) };
  return { attempt, ...(regulationId ? { regulationId } : {}) };
}
