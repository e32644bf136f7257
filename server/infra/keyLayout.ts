// The Redis keys whose place matters on a Redis Cluster, where a Lua script, a MULTI or any command naming several keys
// must name keys of one hash slot: BullMQ's prefix is the hash tag `{<REDIS_PREFIX>}`, a session's lock is tagged with
// its session's whole key, every other script names one key. One layout for a single node and a cluster (a single node
// ignores the tags). Every multi-key operation, audited: docs/infrastructure.md "The key layout".

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
