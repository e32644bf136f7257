// Helpers of the tests that run jobs on the real Redis: waiting for a condition, the keys a test reads (the product's
// own layout, server/infra/keyLayout.ts), and removing every key a test's own prefix left behind.
import { createClient } from 'redis';
import { bullmqPrefix, creationEventKeys, sessionKeyPrefix, sessionLockKey } from '../../server/infra/keyLayout.ts';

export { creationEventKeys, sessionLockKey };

/** The Redis the tests share (a test that needs to stop or pause Redis starts its own: ownRedis.ts). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A session's key (connect-redis). */
export const sessionKey = (prefix: string, sessionId: string) => `${sessionKeyPrefix(prefix)}${sessionId}`;

/** The Redis key of a BullMQ job of the app's queue (its hash: data, options), or with `*` a SCAN pattern of them. */
export const bullmqJobKey = (prefix: string, jobId: string) => `${bullmqPrefix(prefix)}:onboarding-jobs:${jobId}`;

/** SCAN patterns that together match every key under `prefix`: plain ones and those that start with a hash tag. */
export const keyPatterns = (prefix: string) => [`${prefix}*`, `{${prefix}*`];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `pred` holds; throws after `ms`. */
export async function until(pred: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Deletes every key under `prefix` (a test's own namespace). */
export async function deleteRedisKeys(prefix: string, url = REDIS_URL): Promise<void> {
  const c = createClient({ url });
  c.on('error', () => {});
  await c.connect();
  const keys: string[] = [];
  for (const match of keyPatterns(prefix)) for await (const batch of c.scanIterator({ MATCH: match, COUNT: 1000 })) keys.push(...batch);
  if (keys.length) await c.del(keys);
  await c.quit();
}
