// One small JSON-over-HTTP helper shared by the typed upstream clients: undici for the wire,
// zod for every answer. A body that does not match its schema is an upstream fault, never trusted.
// A call inside a request gets at most what is left of the request's deadline (server/infra/deadline.ts).
import { request, type Dispatcher } from 'undici';
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
}

export interface JsonAnswer<T> {
  status: number;
  data: T;
}

export interface HttpClientOptions {
  name: string;
  baseUrl: string;
  timeoutMs: number;
  dispatcher?: Dispatcher;
}

export function createHttpClient(options: HttpClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '');

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
    try {
      res = await request(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        headersTimeout: budget.timeoutMs,
        bodyTimeout: budget.timeoutMs,
        signal: budget.signal,
        dispatcher: options.dispatcher,
      });
      // Inside the try: a body cut off (timeout, deadline) is the same failure as no answer.
      text = await res.body.text();
    } catch (err) {
      if (budget.signal?.aborted) throw deadlinePassed(options.name, `${call.method} ${call.path}`);
      throw new UpstreamError(options.name, 0, undefined, `${options.name} unreachable: ${(err as Error).message}`);
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
