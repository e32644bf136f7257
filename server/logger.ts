// Structured logs with personal data and secrets redacted at the source (pino's redact paths, plus a
// URL scrubber because query strings carry tokens and codes).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger, type DestinationStream } from 'pino';

const sensitiveKeys = [
  'nationalId',
  'natregno',
  'personalNumber',
  'national_id_number',
  'nin',
  'givenName',
  'surname',
  'firstName',
  'lastName',
  'first_name',
  'last_name',
  'fullName',
  'phone',
  'phoneNumber',
  'mobilePhoneNumber',
  'phone_number',
  'email',
  // Where a person lives, their tax numbers and their own words (residency, tax information).
  'address',
  'zipCode',
  'city',
  'taxIdentificationNumber',
  'tin',
  'questionsAndAnswers',
  'refreshToken',
  'token',
  'jwt',
  'accessToken',
  'idToken',
  'authorizationCode',
  'qrStartSecret',
  'qrStartToken',
  'autoStartToken',
  'password',
  'secret',
];

// Redaction in two parts, both cheap per line: fixed paths where pino's redaction costs nothing (no wildcards), and
// the personal fields below, which may sit at any of the first three levels of a logged object, removed by
// `redactPersonalData` as pino's log formatter (pino's wildcard paths for them cost about 5 % of a step page's CPU).
export const redactPaths = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', 'err.body', 'err.cause.body'];

const sensitive = new Set(sensitiveKeys);
// The levels a personal field is looked for at: the logged object's own keys (0) and two levels below.
const REDACT_DEPTH = 2;

const isPlain = (value: unknown): value is Record<string, unknown> | unknown[] =>
  Array.isArray(value) || (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype);

/**
 * A copy of `value` whose personal fields read `[Redacted]`, at the top level and two levels below (in objects and
 * arrays); `name` below the top level too (a person's; pino's own top-level `name` names the process). Errors are left
 * to errorSerializer, which keeps their type (err.name) and drops an upstream's answer; other class instances
 * (requests, responses) to their serializers. Unchanged values are returned as they are.
 */
function redactAt(value: unknown, depth: number): unknown {
  if (!isPlain(value)) return value;
  if (Array.isArray(value)) {
    if (depth > REDACT_DEPTH) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const redacted = redactAt(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[i] = redacted;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const redacted = sensitive.has(key) || (key === 'name' && depth > 0) ? '[Redacted]' : depth < REDACT_DEPTH ? redactAt(item, depth + 1) : item;
    if (redacted !== item) (copy ??= { ...value })[key] = redacted;
  }
  return copy ?? value;
}

/** pino's log formatter: the logged object with its personal fields redacted (redactAt). */
export function redactPersonalData(object: Record<string, unknown>): Record<string, unknown> {
  return redactAt(object, 0) as Record<string, unknown>;
}

// Fields of an error that say what failed without carrying what the person entered or an upstream answered.
const safeErrorFields = ['code', 'status', 'statusCode', 'upstream', 'errno', 'syscall'] as const;
const MAX_CAUSE_DEPTH = 5;

/**
 * The `err` of a log entry: type, name, message and stack (and the cause's, in turn), plus a few
 * harmless fields. Unlike pino's own serializer it copies no other own property, since an error may carry
 * an upstream's answer (UpstreamError.body) or a request's data. Anything thrown that is not an Error is
 * logged by its type and text.
 */
export function errorSerializer(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) {
    if (err === null || typeof err !== 'object') return { type: typeof err, message: String(err) };
    return err;
  }
  const out: Record<string, unknown> = {
    type: err.constructor?.name || err.name,
    name: err.name,
    message: err.message,
    stack: err.stack,
  };
  for (const key of safeErrorFields) {
    const value = (err as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = value;
  }
  if (err.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = errorSerializer(err.cause, depth + 1);
  return out;
}

// A logged URL keeps the values of an allow-list of our own query switches only, each only in a short token's shape:
// every other value (the entry's clientUrl, clientId and tracking ids, the broker's code and state, tokens, an upload
// form's _csrf) may carry personal data or a secret, whatever its name, and reads [Redacted]. A name is kept when it
// looks like one (a letter or _ first, at most 32 characters), else only counted: a name may be someone's data too.
const loggedQueryValues = new Set(['lang', 'webview', 'embedded', 'justCompletedSignup', 'shouldUseLegacyFlow', 'epk', 'run', 'error', 'dialog']);
const SAFE_QUERY_VALUE = /^[A-Za-z0-9_.-]{1,32}$/;
const SAFE_QUERY_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/;

/** Keeps the path, and of the query the allow-listed values; other values read [Redacted], odd names are counted. */
export function scrubUrl(raw: string): string {
  const q = raw.indexOf('?');
  if (q < 0) return raw;
  const kept = new URLSearchParams();
  let unnamed = 0;
  for (const [name, value] of new URLSearchParams(raw.slice(q + 1))) {
    if (!SAFE_QUERY_NAME.test(name)) unnamed++;
    else kept.append(name, loggedQueryValues.has(name) && SAFE_QUERY_VALUE.test(value) ? value : '[Redacted]');
  }
  if (unnamed > 0) kept.append('[unnamed]', String(unnamed));
  return `${raw.slice(0, q)}?${kept.toString()}`;
}

/** A request's id in its log line: a well-formed x-request-id as sent, else a new UUID; the answer says it (x-request-id). */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

export function createLogger(options: { level: string; name: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: redactPaths },
      formatters: { log: redactPersonalData },
      serializers: { err: errorSerializer },
    },
    destination,
  );
}
