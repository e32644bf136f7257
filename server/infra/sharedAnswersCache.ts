// Brokerage answers kept a short while per web process for page views (a post asks afresh): the account picker's
// agreement bundles and the legacy form's questionnaire, the same for everyone (nothing of the person in them or in their
// keys), and the contact data the brokerage holds of one application, which only its owner's page views reach. Bounded
// in time and size; a failure is never kept; no background refresh (docs/infrastructure.md "Caches of upstream answers").
import { LRUCache } from 'lru-cache';
import type { AgreementDocument, ContactRelatedData } from '../../shared/contracts/brokerageContract.ts';
import type { Questionnaire } from '../../shared/contracts/kycContract.ts';

/** Each takes the call to make when nothing fresh is kept; the answer is shared, so callers must not change it. */
export interface SharedAnswers {
  agreementBundles(query: { pdf_id: string; country: string; lang: string }, ask: () => Promise<AgreementDocument[]>): Promise<AgreementDocument[]>;
  questionnaire(questionnaireId: number, acceptLanguage: string, ask: () => Promise<Questionnaire>): Promise<Questionnaire>;
  /** The application's registered address and known contacts (a page view of the person's own application only). */
  contactRelatedData(prospectId: string, ask: () => Promise<ContactRelatedData>): Promise<ContactRelatedData>;
}

export interface SharedAnswersOptions {
  /** How long an answer is used (SHARED_ANSWERS_CACHE_MS); 0 keeps nothing. */
  ttlMs: number;
  /** Answers kept per kind at most (the least recently used goes first). */
  max?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Asks nothing twice within the lifetime. */
function keptFor<V extends object>(options: SharedAnswersOptions): (key: string, ask: () => Promise<V>) => Promise<V> {
  if (options.ttlMs === 0) return (_key, ask) => ask();
  const now = options.now;
  // A clock of the caller's is read on every get (no 1 ms reuse of the last reading, which would outlast a test's jump).
  const cache = new LRUCache<string, V>({ max: options.max ?? 500, ttl: options.ttlMs, ...(now ? { perf: { now }, ttlResolution: 0 } : {}) });
  return async (key, ask) => {
    const kept = cache.get(key);
    if (kept !== undefined) return kept;
    const fresh = await ask();
    cache.set(key, fresh);
    return fresh;
  };
}

export function createSharedAnswers(options: SharedAnswersOptions): SharedAnswers {
  const bundles = keptFor<AgreementDocument[]>(options);
  const questionnaires = keptFor<Questionnaire>(options);
  const contacts = keptFor<ContactRelatedData>(options);
  return {
    agreementBundles: (query, ask) => bundles(`${query.pdf_id}|${query.country}|${query.lang}`, ask),
    questionnaire: (questionnaireId, acceptLanguage, ask) => questionnaires(`${questionnaireId}|${acceptLanguage}`, ask),
    contactRelatedData: (prospectId, ask) => contacts(prospectId, ask),
  };
}

/** Keeps nothing: every call asked (tests and callers without a cache). */
export const noSharedAnswers: SharedAnswers = {
  agreementBundles: (_query, ask) => ask(),
  questionnaire: (_id, _language, ask) => ask(),
  contactRelatedData: (_prospectId, ask) => ask(),
};
