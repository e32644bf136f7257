// The Redis keys whose place matters on a Redis Cluster, where a Lua script, a MULTI or any command naming several
// keys must name keys of one hash slot (else CROSSSLOT). A key's slot is that of its hash tag, the text between the
// first `{` and the next `}`, when it has one; else of the whole key. One layout for a single node and a cluster:
// a single node ignores the tags, so the tests on one node run the keys a cluster gets.
//
// Every multi-key operation of server/ and workers/ (audited for issue 24 item 5):
// - BullMQ's scripts touch many keys of a queue at once: its prefix is a hash tag, `{<REDIS_PREFIX>}` (BullMQ's own
//   advice for a cluster), so each queue lives in one slot.
// - A session and its lock: `<REDIS_PREFIX>:sess:<id>` (connect-redis appends the id, so it carries no tag of its
//   own) and the lock `{<REDIS_PREFIX>:sess:<id>}:lock`, tagged with the session's whole key: the same slot, so a
//   script may check the lock and write the session in one step.
// - Every other script or MULTI names one key: a creation's latest event (server/infra/creationEvents.ts; the
//   event's number is the latest's plus one, so no second key), the KYC state (kycStates.ts), the lock's renewal and
//   release (sessionLocks.ts), a rate-limit count (rate-limiter-flexible's script per key). The creation
//   credentials, records, login hand-offs, the case triggers (caseTriggers.ts) and connect-redis use single-key commands.
// Pub/sub channels are not keys: a PUBLISH on any node of a cluster reaches the subscribers on every node.

/** connect-redis's prefix: a session's key is this followed by its id. */
export function sessionKeyPrefix(prefix: string): string {
  return `${prefix}:sess:`;
}

/** The session's lock (server/infra/sessionLocks.ts): in the session key's slot. */
export function sessionLockKey(prefix: string, sessionId: string): string {
  return `{${sessionKeyPrefix(prefix)}${sessionId}}:lock`;
}

/** BullMQ's prefix: a queue's keys are `{<prefix>}:<queue>:…`, all in one slot. */
export function bullmqPrefix(prefix: string): string {
  return `{${prefix}}`;
}

/** A prospect's latest creation event, and the channel its events are published on. */
export function creationEventKeys(prefix: string, prospectId: string): { latest: string; channel: string } {
  return { latest: `${prefix}:creation:${prospectId}:latest`, channel: `${prefix}:creation:${prospectId}:events` };
}
