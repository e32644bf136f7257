// One small JSON-over-HTTP helper shared by the typed upstream clients: undici for the wire,
// zod for every answer. A body that does not match its schema is an upstream fault, never trusted.
// A call inside a request gets at most what is left of the request's deadline (server/infra/deadline.ts).
import { getGlobalDispatcher, Pool, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { currentDeadline } from '../infra/deadline.ts';
import { UpstreamError } from '../../shared/upstreamError.ts';

export { UpstreamError };

/** The request's deadline has passed: the call is not made (status 0, like an unreachable upstream: try again). */
export function deadlinePassed(upstream: string, what: string): UpstreamError {
  return new UpstreamError(upstream, 0, undefined, `${upstream} ${what}: request deadline passed`);
}

/**
 * How long a call may take now: its own timeout, cut to what is left of the request's deadline, and the
 * deadline's signal (which also ends a body still arriving at the deadline). Null when nothing is left.
 */
export function callBudget(timeoutMs: number): { timeoutMs: number; signal: AbortSignal | undefined } | null {
  const deadline = currentDeadline();
  if (!deadline) return { timeoutMs, signal: undefined };
  const left = deadline.remaining();
  if (left <= 0 || deadline.signal.aborted) return null;
  return { timeoutMs: Math.min(timeoutMs, left), signal: deadline.signal };
}

export interface JsonCall<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  bearer?: string;
  headers?: Record<string, string>;
  /** Schema for a 2xx answer; a 204 answers `undefined` without parsing. */
  schema: S;
  /** The call's name in the metrics when not its path's in the client’s catalogue. */
  call?: string;
}

export interface JsonAnswer<T> {
  status: number;
  data: T;
}

/** A client's paths by call name (shared/contracts/*Paths): a fixed path, or a builder of one from ids. */
export type PathCatalogue = Readonly<Record<string, string | ((...ids: never[]) => string)>>;

const ID = 'callnameplaceholder';

/**
 * The call name of a request path: the catalogue's key whose path it is (a builder's path matched with any id in the
 * places of its arguments), else `other`. So a metric names the call, never the path with the person's ids in it.
 */
export function callNamer(catalogue: PathCatalogue): (path: string) => string {
  const fixed = new Map<string, string>();
  const built: Array<{ name: string; pattern: RegExp }> = [];
  for (const [name, path] of Object.entries(catalogue)) {
    if (typeof path === 'string') {
      if (!fixed.has(path)) fixed.set(path, name);
      continue;
    }
    const template = (path as (...ids: string[]) => string)(...Array<string>(Math.max(1, path.length)).fill(ID));
    const source = template
      .split(ID)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    built.push({ name, pattern: new RegExp(`^${source}$`) });
  }
  return (path) => fixed.get(path) ?? built.find((b) => b.pattern.test(path))?.name ?? 'other';
}

/** One finished call, for the metrics (server/infra/metrics.ts UpstreamObserver): status 0 when no answer came. */
export type CallObserver = (call: { upstream: string; call: string; seconds: number; status: number }) => void;

export interface HttpClientOptions {
  name: string;
  baseUrl: string;
  timeoutMs: number;
  dispatcher?: Dispatcher;
  /**
   * Calls of this client on its own pool of at most this many connections to `baseUrl` (calls beyond wait for one);
   * without, the process's shared dispatcher, which opens as many as there are calls in flight. A pool picks a free
   * connection by walking its connections, so thousands of calls a second are cheaper on a few busy ones.
   */
  connections?: number;
  /** The client's paths by call name, which name its calls in `observe` (unknown paths: `other`). */
  paths?: PathCatalogue;
  observe?: CallObserver;
}

export function createHttpClient(options: HttpClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '');
  const { observe } = options;
  const callName = callNamer(options.paths ?? {});
  const pool = options.connections === undefined ? undefined : new Pool(new URL(base).origin, { connections: options.connections });
  // Read at each call, not at start: the process's dispatcher may be set after the client is made.
  const dispatcher = () => options.dispatcher ?? pool ?? getGlobalDispatcher();

  async function raw(call: Omit<JsonCall<z.ZodType>, 'schema'>): Promise<{ status: number; body: unknown }> {
    const url = new URL(base + call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.bearer) headers.authorization = `Bearer ${call.bearer}`;
    const budget = callBudget(options.timeoutMs);
    if (!budget) throw deadlinePassed(options.name, `${call.method} ${call.path}`);
    let res: Dispatcher.ResponseData;
    let text: string;
    // For the metrics: the status once the whole answer has come, 0 while none has.
    let answered = 0;
    const started = observe ? performance.now() : 0;
    try {
      res = await dispatcher().request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        headersTimeout: budget.timeoutMs,
        bodyTimeout: budget.timeoutMs,
        signal: budget.signal,
      });
      // Inside the try: a body cut off (timeout, deadline) is the same failure as no answer.
      text = await res.body.text();
      answered = res.statusCode;
    } catch (err) {
      if (budget.signal?.aborted) throw deadlinePassed(options.name, `${call.method} ${call.path}`);
      throw new UpstreamError(options.name, 0, undefined, `${options.name} unreachable: ${(err as Error).message}`);
    } finally {
      observe?.({ upstream: options.name, call: call.call ?? callName(call.path), seconds: (performance.now() - started) / 1000, status: answered });
    }
    let body: unknown = undefined;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { status: res.statusCode, body };
  }

  /** Calls and parses a 2xx answer; any other status throws UpstreamError carrying status and body. */
  async function json<S extends z.ZodType>(call: JsonCall<S>): Promise<JsonAnswer<z.infer<S>>> {
    const { status, body } = await raw(call);
    if (status < 200 || status >= 300) {
      throw new UpstreamError(options.name, status, body, `${options.name} ${call.method} ${call.path} answered ${status}`);
    }
    if (status === 204) return { status, data: undefined as z.infer<S> };
    const parsed = call.schema.safeParse(body);
    if (!parsed.success) {
      throw new UpstreamError(options.name, status, undefined, `${options.name} ${call.method} ${call.path}: unexpected answer shape`);
    }
    return { status, data: parsed.data };
  }

  return { json, raw, name: options.name };
}
export type HttpClient = ReturnType<typeof createHttpClient>;
