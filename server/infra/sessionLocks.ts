// One request at a time per session, on the routes where one browser's requests overlap.
//
// express-session loads a session when a request starts and writes the whole of it back when the
// response ends, so two requests of one browser overlap with last-write-wins: the BankID page's
// once-a-second status poll could write back an order that Back or "this device" had just cancelled,
// or start a second order next to the page's own (then only one of them is cancelled); an upload the
// browser has dropped for the next one could write the file list back without the next one's file.
// Holding a per-session lock from before the session is re-read until after it is saved makes those
// requests take turns, each seeing what the one before it wrote. In Redis mode the lock is a Redis key,
// so it holds across web processes; in memory mode (one process) it is a queue per session.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { RedisClientType } from 'redis';

export interface SessionLocks {
  /** Waits for the session's lock; the returned function releases it. Resolves to null when waiting ran out. */
  acquire(sessionId: string): Promise<(() => Promise<void>) | null>;
}

export interface LockTiming {
  /** How long a holder may keep the lock before it lapses (a crashed process must not block the person). */
  holdMs: number;
  /** How long a request waits for the lock before it goes on without it. */
  waitMs: number;
}

// holdMs covers a 3 MB upload from a slow phone: the multipart body arrives while the lock is held.
export const DEFAULT_LOCK_TIMING: LockTiming = { holdMs: 60_000, waitMs: 10_000 };

export function createMemorySessionLocks(timing: LockTiming = DEFAULT_LOCK_TIMING): SessionLocks {
  // Each session's tail: the promise the next comer waits on.
  const tails = new Map<string, Promise<void>>();
  return {
    async acquire(sessionId) {
      const before = tails.get(sessionId) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const tail = before.then(() => mine);
      tails.set(sessionId, tail);
      let lapse: ReturnType<typeof setTimeout> | undefined;
      let waited: ReturnType<typeof setTimeout> | undefined;
      const gotIt = await Promise.race([
        before.then(() => true),
        new Promise<false>((r) => (waited = setTimeout(() => r(false), timing.waitMs))),
      ]);
      clearTimeout(waited);
      const done = async () => {
        clearTimeout(lapse);
        release();
        if (tails.get(sessionId) === tail) tails.delete(sessionId);
      };
      if (!gotIt) {
        // Gave up waiting: step out of the queue so those behind are not held up by this request.
        await done();
        return null;
      }
      // A holder that never releases lapses after holdMs, as the Redis key would.
      lapse = setTimeout(release, timing.holdMs);
      lapse.unref();
      return done;
    },
  };
}

// Deletes the key only if it still holds this holder's token (it may have lapsed and been taken since).
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export function createRedisSessionLocks(options: { client: RedisClientType; prefix: string; timing?: LockTiming; retryMs?: number }): SessionLocks {
  const timing = options.timing ?? DEFAULT_LOCK_TIMING;
  const retryMs = options.retryMs ?? 25;
  return {
    async acquire(sessionId) {
      const key = `${options.prefix}:sesslock:${sessionId}`;
      const token = randomUUID();
      const deadline = Date.now() + timing.waitMs;
      for (;;) {
        const set = await options.client.set(key, token, { NX: true, PX: timing.holdMs });
        if (set === 'OK') break;
        if (Date.now() >= deadline) return null;
        await new Promise((r) => setTimeout(r, retryMs));
      }
      return async () => {
        await options.client.eval(RELEASE_SCRIPT, { keys: [key], arguments: [token] });
      };
    },
  };
}

/**
 * Route middleware: takes the session's lock, re-reads the session from the store (a request that held
 * the lock before may have changed it since this one's session was loaded), and when the handler ends
 * the response, saves the session and only then releases the lock. Not on the connection closing: a
 * browser that navigates away drops its poll while the handler still runs, and that handler's write
 * must come before the next holder's read. A handler that never answers loses the lock after holdMs.
 * A session not yet stored has nothing to re-read. Without the lock (waiting ran out, store down) the
 * request goes on unlocked.
 */
export function serialiseSession(locks: SessionLocks, logger: Pick<Logger, 'warn'>): RequestHandler {
  return async (req, res, next) => {
    let release: (() => Promise<void>) | null;
    try {
      release = await locks.acquire(req.sessionID);
      if (!release) logger.warn('session lock not acquired in time; request goes on unlocked');
    } catch (err) {
      release = null;
      logger.warn({ err: { message: (err as Error).message } }, 'session lock unavailable; request goes on unlocked');
    }
    if (!release) {
      next();
      return;
    }
    const releaseLock = () => release!().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'session lock release failed'));

    // express-session's own end wrapper then finds the session saved and does not write it again.
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    let ending = false;
    res.end = ((...args: unknown[]) => {
      if (ending) return res;
      ending = true;
      const finish = () => {
        void releaseLock();
        end(...args);
      };
      if (req.session) {
        req.session.save((err?: Error) => {
          if (err) logger.warn({ err: { message: err.message } }, 'session save failed');
          finish();
        });
      } else {
        finish();
      }
      return res;
    }) as typeof res.end;

    // A session that holds anything besides its cookie was loaded from the store.
    const loadedFromStore = Object.keys(req.session).some((key) => key !== 'cookie');
    req.session.reload((err?: Error) => {
      if (err && !/failed to load session/.test(err.message)) {
        next(err);
        return;
      }
      if (err && loadedFromStore) {
        // The session was replaced while this request waited (identification gives it a new id) or ended.
        // Going on would write the stale copy back under the old id and send the old cookie, undoing the
        // change: answer without the session instead, and the browser asks again with its current cookie.
        delete (req as { session?: unknown }).session;
        res.redirect(303, req.method === 'GET' ? req.originalUrl : '/onboarding');
        return;
      }
      // Otherwise nothing is stored for this id yet: the new session is current.
      next();
    });
  };
}
