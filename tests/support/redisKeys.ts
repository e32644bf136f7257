// Helpers of the tests that run jobs on the real Redis: waiting for a condition, and removing every key a
// test's own prefix left behind.
import { createClient } from 'redis';
import { REDIS_URL } from './stack.ts';

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
  for await (const batch of c.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
  if (keys.length) await c.del(keys);
  await c.quit();
}
