// One request at a time per session, on the pages that write it: express-session writes the whole session back when a
// response ends, so overlapping requests of one browser lost each other's writes (a cancelled BankID order written back,
// an upload's file dropped). The lock is a Redis key across web processes (a queue per session in memory mode), renewed
// while held; a request that cannot get it, or whose lock lapsed before it saves, is refused and told to try again, never
// run unlocked. Why each of these: docs/infrastructure.md "Session locks".
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { redisScript, type RedisConnection } from './redis.ts';
import { routes } from '../../shared/routes.ts';
import { redirectTargetOr } from '../../shared/redirectTarget.ts';
import { writesNothingBack } from '../session.ts';
import { sessionLockKey } from './keyLayout.ts';

/** A lock this request holds. */
export interface HeldLock {
  /**
   * True while the lock is still this holder's, and then extends it by holdMs. False once it lapsed (it
   * may be someone else's now) or when the store cannot say (unreachable). Never rejects.
   */
  confirm(): Promise<boolean>;
  /** Gives the lock up (only if it is still this holder's). */
  release(): Promise<void>;
}

export interface SessionLocks {
  /**
   * Waits up to waitMs for the session's lock. Resolves to null when waiting ran out; rejects when the
   * lock store cannot be reached.
   */
  acquire(sessionId: string): Promise<HeldLock | null>;
}

export interface LockTiming {
  /** A lock its holder stopped renewing (the process died) lapses after this long. Renewed every holdMs / 3. */
  holdMs: number;
  /** How long a request waits for the lock before it is refused ("please try again"). */
  waitMs: number;
  /** Renewal stops this long after the lock was taken: only a stuck request gets there, and its write is then refused. */
  maxHoldMs: number;
}

// holdMs: how long a person waits after a web process died holding their lock. maxHoldMs: Node's default
// requestTimeout (300 s to receive a request, body included) plus the request deadline and a margin.
export const DEFAULT_LOCK_TIMING: LockTiming = { holdMs: 15_000, waitMs: 10_000, maxHoldMs: 360_000 };

export function createMemorySessionLocks(timing: LockTiming = DEFAULT_LOCK_TIMING): SessionLocks {
  // Each session's tail: the promise the next comer waits on.
  const tails = new Map<string, Promise<void>>();
  return {
    async acquire(sessionId) {
      const before = tails.get(sessionId) ?? Promise.resolve();
      let open!: () => void;
      const mine = new Promise<void>((r) => (open = r));
      const tail = before.then(() => mine);
      tails.set(sessionId, tail);
      // Forgotten once the queue has passed this one and nobody queued behind it. Not earlier: a comer
      // that found no tail would not wait for the holder in front.
      void tail.then(() => {
        if (tails.get(sessionId) === tail) tails.delete(sessionId);
      });
      let waited: ReturnType<typeof setTimeout> | undefined;
      const gotIt = await Promise.race([before.then(() => true), new Promise<false>((r) => (waited = setTimeout(() => r(false), timing.waitMs)))]);
      clearTimeout(waited);
      if (!gotIt) {
        // Gave up waiting: step out of the queue so those behind wait only for the ones in front of it.
        open();
        return null;
      }
      // One process: a holder cannot die apart from its lock, so it needs no renewal; one stuck for
      // maxHoldMs lets the next one in, as the Redis key would.
      let held = true;
      const lapse = setTimeout(() => {
        held = false;
        open();
      }, timing.maxHoldMs);
      lapse.unref();
      return {
        confirm: async () => held,
        async release() {
          held = false;
          clearTimeout(lapse);
          open();
        },
      };
    },
  };
}

// Deletes the key only if it still holds this holder's token (it may have lapsed and been taken since).
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const releaseScript = redisScript(RELEASE_SCRIPT);
// Extends the key only if it still holds this holder's token. A 1 proves the lock was never anyone
// else's since it was taken: SET NX only succeeds on a missing key, and a new holder brings a new token.
const RENEW_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const renewScript = redisScript(RENEW_SCRIPT);

export function createRedisSessionLocks(options: { client: RedisConnection; prefix: string; timing?: LockTiming; retryMs?: number }): SessionLocks {
  const timing = options.timing ?? DEFAULT_LOCK_TIMING;
  const retryMs = options.retryMs ?? 25;
  const { client } = options;
  return {
    async acquire(sessionId) {
      const key = sessionLockKey(options.prefix, sessionId);
      const token = randomUUID();
      const deadline = Date.now() + timing.waitMs;
      for (;;) {
        const set = await client.set(key, token, { NX: true, PX: timing.holdMs });
        if (set === 'OK') break;
        if (Date.now() >= deadline) return null;
        await new Promise((r) => setTimeout(r, retryMs));
      }
      const until = Date.now() + timing.maxHoldMs;
      // Lost for good: the key no longer holds the token, released, or past maxHoldMs.
      let lost = false;
      const confirm = async (): Promise<boolean> => {
        if (!lost && Date.now() > until) lost = true;
        if (lost) return false;
        try {
          const renewed = await renewScript(client, { keys: [key], arguments: [token, String(timing.holdMs)] });
          if (renewed !== 1) lost = true;
          return renewed === 1;
        } catch {
          // Unreachable now: not known to be held. A later renewal that succeeds proves it still is.
          return false;
        }
      };
      const renewal = setInterval(
        () => {
          void confirm().then(() => {
            if (lost) clearInterval(renewal);
          });
        },
        Math.max(1, Math.floor(timing.holdMs / 3)),
      );
      renewal.unref();
      return {
        confirm,
        async release() {
          lost = true;
          clearInterval(renewal);
          await releaseScript(client, { keys: [key], arguments: [token] });
        },
      };
    },
  };
}

/** The lock id of a person's application (the prospect): taken by every browser of theirs, beside its session's own. */
export const applicationLockId = (prospectId: string): string => `application:${prospectId}`;

/** Both locks as one: held while both are, given up together. */
function bothHeld(first: HeldLock, second: HeldLock): HeldLock {
  return {
    confirm: async () => (await Promise.all([first.confirm(), second.confirm()])).every(Boolean),
    release: async () => void (await Promise.all([second.release(), first.release()])),
  };
}

/** The prospect the request names (its route's :prospectId) when the session's journey owns it; else undefined. */
function ownedApplicationOf(req: Request): string | undefined {
  const named = (req.params as { prospectId?: unknown } | undefined)?.prospectId;
  const owned = (req.session as { journey?: { prospectId?: unknown } } | undefined)?.journey?.prospectId;
  return typeof named === 'string' && named === owned ? named : undefined;
}

/** Why a request was refused: its session's lock stayed taken for waitMs, or could not be had or kept (store unreachable, lapsed). */
export type LockRefusal = 'busy' | 'unavailable';

/**
 * Answers a request the lock refused. Nothing of it reached the session, and it is not saved afterwards
 * (the session may be read for the page, e.g. its language). The app's answer (server/errors.ts
 * sessionBusy) is a 503 JSON for API callers and a translated "please try again" for browsers.
 */
export type RefuseHandler = (req: Request, res: Response, why: LockRefusal) => void;

const refuseWith503: RefuseHandler = (_req, res) => {
  res.status(503).set('retry-after', '1').json({ error: 'Busy, try again' });
};

/** Raised by a session save that found its lock gone. */
class LockLostError extends Error {
  constructor() {
    super('session lock lost before the save');
  }
}

// Headers of the handler's own answer that must not stay on the refusal that replaces it (cookies and
// security headers stay).
const answerHeaders = ['content-type', 'content-length', 'location', 'etag', 'last-modified'];

/**
 * Route middleware: takes the session's lock, re-reads the session from the store, and when the handler ends the
 * response (not when the connection closes: a dropped poll's handler still writes), saves the session and only then
 * releases the lock. Every save first confirms the lock is still held. Without the lock the handler never runs and
 * `refuse` answers; a save that finds the lock gone, or fails, is not made, and `refuse` answers if it still can.
 */
/**
 * `ownOrigin` (PUBLIC_URL): a page view whose session was replaced while it waited is sent to the same URL again, a path
 * of that origin only; without it, to the start page.
 */
export function serialiseSession(locks: SessionLocks, logger: Pick<Logger, 'warn'>, refuse: RefuseHandler = refuseWith503, ownOrigin?: string): RequestHandler {
  return async (req, res, next) => {
    // A page view without a stored session stores none (server/session.ts) and its id is no one else's; a page view
    // that only reads (server/pageKit/mountPages.ts) writes nothing back: nothing to take turns with, so no lock, no re-read and no save.
    if (writesNothingBack(req)) return next();
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    // The session is read (the page's language) but never written: express-session saves nothing and
    // sets no cookie for a request whose session is gone by the time the answer ends.
    const endUnsavedWith = (...args: unknown[]) => {
      delete (req as { session?: unknown }).session;
      return end(...args);
    };
    const endUnsaved = endUnsavedWith as typeof res.end;

    let lock: HeldLock | null;
    try {
      lock = await locks.acquire(req.sessionID);
    } catch (err) {
      logger.warn({ err }, 'session lock store unreachable; request refused');
      res.end = endUnsaved;
      refuse(req, res, 'unavailable');
      return;
    }
    if (!lock) {
      logger.warn('session lock not acquired in time; request refused');
      res.end = endUnsaved;
      refuse(req, res, 'busy');
      return;
    }
    let held = lock;
    const releaseLock = () => held.release().catch((err: Error) => logger.warn({ err }, 'session lock release failed'));

    let ending = false;
    res.end = ((...args: unknown[]) => {
      if (ending) return res;
      ending = true;
      if (!req.session) {
        void releaseLock();
        return end(...args);
      }
      // express-session's own end wrapper then finds the session saved and does not write it again.
      req.session.save((err?: Error) => {
        if (!err) {
          void releaseLock();
          end(...args);
          return;
        }
        logger.warn({ err }, 'session not saved; request refused');
        if (res.headersSent) {
          // A streamed answer cannot be taken back; at least nothing more is written.
          void releaseLock();
          endUnsavedWith(...args);
          return;
        }
        for (const name of answerHeaders) res.removeHeader(name);
        res.statusCode = 200;
        res.end = endUnsaved;
        void releaseLock();
        refuse(req, res, err instanceof LockLostError ? 'busy' : 'unavailable');
      });
      return res;
    }) as typeof res.end;

    // Every save goes through the lock: the handler's own (redirectAfterSave) and the one above.
    const guardSaves = () => {
      const session = req.session;
      const save = session.save.bind(session);
      Object.defineProperty(session, 'save', {
        configurable: true,
        enumerable: false,
        writable: true,
        value(callback?: (err?: Error) => void) {
          void held.confirm().then((stillHeld) => (stillHeld ? save(callback) : callback?.(new LockLostError())));
          return session;
        },
      });
    };

    // A session that holds anything besides its cookie was loaded from the store.
    const loadedFromStore = Object.keys(req.session).some((key) => key !== 'cookie');
    req.session.reload((err?: Error) => {
      if (err && !/failed to load session/.test(err.message)) {
        // The store failed: this request's copy may be stale, so it is neither used to change nor saved.
        logger.warn({ err }, 'session not re-read; request refused');
        ending = true;
        res.end = endUnsaved;
        void releaseLock();
        refuse(req, res, 'unavailable');
        return;
      }
      if (err && loadedFromStore) {
        // The session was replaced while this request waited (identification gives it a new id) or ended.
        // Going on would write the stale copy back under the old id and send the old cookie, undoing the
        // change: answer without the session instead, and the browser asks again with its current cookie.
        delete (req as { session?: unknown }).session;
        // The request line is the requester's text (it may be an absolute URL): identification-routing-creation §4 "Redirect sanitising".
        res.redirect(303, req.method === 'GET' && ownOrigin ? redirectTargetOr(req.originalUrl, ownOrigin, routes.start) : routes.start);
        return;
      }
      // Otherwise nothing is stored for this id yet: the new session is current.
      void holdApplication().then((ok) => {
        if (!ok) return;
        guardSaves();
        next();
      });
    });

    // A page of the person's application takes its lock too (after the session's, always in that order, so no two
    // requests wait on each other): a second browser of the same person takes turns with the first on it.
    async function holdApplication(): Promise<boolean> {
      const prospectId = ownedApplicationOf(req);
      if (!prospectId) return true;
      let why: LockRefusal = 'busy';
      try {
        const application = await locks.acquire(applicationLockId(prospectId));
        if (application) {
          held = bothHeld(held, application);
          return true;
        }
        logger.warn('application lock not acquired in time; request refused');
      } catch (err) {
        logger.warn({ err }, 'application lock store unreachable; request refused');
        why = 'unavailable';
      }
      ending = true;
      res.end = endUnsaved;
      void releaseLock();
      refuse(req, res, why);
      return false;
    }
  };
}
