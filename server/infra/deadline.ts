// The overall deadline of a request the person waits on (REQUEST_DEADLINE_MS), shared by its upstream calls and their
// retries; past it a call fails at once as an UpstreamError of status 0 (the try-again screens). It lives in
// AsyncLocalStorage, so every call made while handling the request finds it; background work a request sets going must
// start through outsideRequest, or it dies at the request's deadline. Why: docs/infrastructure.md "The request deadline".
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request, RequestHandler } from 'express';

export interface Deadline {
  /** Aborts when the deadline passes. */
  readonly signal: AbortSignal;
  /** Milliseconds left (never negative). */
  remaining(): number;
}

/** The reason the deadline's signal aborts with. */
export class DeadlineExceededError extends Error {
  constructor(ms: number) {
    super(`request deadline of ${ms} ms passed`);
    this.name = 'DeadlineExceededError';
  }
}

class RequestDeadline implements Deadline {
  readonly #controller = new AbortController();
  #at: number | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number,
  ) {}

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Starts the clock (once). */
  start(): void {
    if (this.#at !== null) return;
    this.#at = this.now() + this.ms;
    this.#timer = setTimeout(() => this.#controller.abort(new DeadlineExceededError(this.ms)), this.ms);
    this.#timer.unref();
  }

  remaining(): number {
    return this.#at === null ? this.ms : Math.max(0, this.#at - this.now());
  }

  /** Brings the deadline forward to `at` (never later than it already is); starts the clock if need be. */
  bringForward(at: number): void {
    if (this.#controller.signal.aborted || (this.#at !== null && this.#at <= at)) return;
    this.#at = at;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#controller.abort(new DeadlineExceededError(this.ms)), Math.max(0, at - this.now()));
    this.#timer.unref();
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }
}

const storage = new AsyncLocalStorage<RequestDeadline>();

/**
 * The deadline of the request being handled, or undefined outside a request. Asking starts its clock if
 * the request body was still arriving: a call is about to be made, so the person is now waiting on us.
 */
export function currentDeadline(): Deadline | undefined {
  const deadline = storage.getStore();
  deadline?.start();
  return deadline;
}

/**
 * Runs `fn` outside any request: whatever it starts (timers, promises, upstream calls) finds no request's
 * deadline and keeps its own timeouts. For background work a request sets going, such as a cache refresh or
 * a job the in-memory queue schedules, which must outlive the request and never die at its deadline.
 */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** Runs `fn` with a deadline of `ms` from now (tests, and anything outside Express that a person waits on). */
export function withDeadline<T>(ms: number, fn: () => T, now: () => number = Date.now): T {
  const deadline = new RequestDeadline(ms, now);
  deadline.start();
  return storage.run(deadline, fn);
}

/** A body the client is still sending (content-length or chunked), as type-is's hasBody judges it. */
function bodyStillArriving(req: Request): boolean {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  return hasBody && !req.complete;
}

/**
 * The deadlines of the requests this process is handling. Graceful shutdown brings them forward, so a
 * request in flight answers (its try-again screen, as at its own deadline) before the process must exit,
 * instead of being cut off with no answer at all.
 */
export interface RunningDeadlines {
  /** Every running request's deadline, and that of any request still arriving, passes within `ms` at the latest. */
  endWithin(ms: number): void;
}

interface DeadlineRegistry extends RunningDeadlines {
  add(deadline: RequestDeadline): void;
  delete(deadline: RequestDeadline): void;
}

export function createRunningDeadlines(now: () => number = Date.now): RunningDeadlines {
  const running = new Set<RequestDeadline>();
  let endAt: number | null = null;
  const registry: DeadlineRegistry = {
    add(deadline) {
      running.add(deadline);
      if (endAt !== null) deadline.bringForward(endAt);
    },
    delete(deadline) {
      running.delete(deadline);
    },
    endWithin(ms) {
      const at = now() + ms;
      endAt = endAt === null ? at : Math.min(endAt, at);
      for (const deadline of running) deadline.bringForward(endAt);
    },
  };
  return registry;
}

/**
 * Gives every request a deadline of `ms`. The clock starts when the request has arrived: for an upload
 * from a slow phone that is when its body has been received (the transfer is not time the person waits
 * on an upstream), and at the latest when the first upstream call is made.
 */
export function deadlineMiddleware(ms: number, now: () => number = Date.now, running?: RunningDeadlines): RequestHandler {
  const registry = running as DeadlineRegistry | undefined;
  return (req, res, next) => {
    const deadline = new RequestDeadline(ms, now);
    if (bodyStillArriving(req)) req.once('end', () => deadline.start());
    else deadline.start();
    registry?.add(deadline);
    res.once('close', () => {
      deadline.dispose();
      registry?.delete(deadline);
    });
    storage.run(deadline, next);
  };
}
