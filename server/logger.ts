// Structured logs with personal data and secrets redacted at the source (pino's redact paths, plus a
// URL scrubber because query strings carry tokens and codes).
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

// `name` is only redacted below the top level: pino's own `name` field names the process. An error's
// `name` (its type, err.name and err.cause.name) is kept: see censor below.
export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  // An upstream's answer may hold the person's data (UpstreamError.body); errorSerializer drops it too.
  'err.body',
  'err.cause.body',
  '*.name',
  '*.*.name',
  ...sensitiveKeys.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
];

/** err.name, err.cause.name, …: the error's type, which an operator needs to trace a failure. */
function isErrorName(path: readonly unknown[]): boolean {
  return path.length >= 2 && path[0] === 'err' && path[path.length - 1] === 'name' && path.slice(1, -1).every((p) => p === 'cause');
}

/** Redacts every matched path but an error's name. */
function censor(value: unknown, path: readonly unknown[]): unknown {
  return isErrorName(path) && typeof value === 'string' ? value : '[Redacted]';
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

// _csrf: an upload form's anti-forgery token rides in its action's query (server/csrfProtection.ts).
const sensitiveQuery = /^(autostarttoken|code|state|token|jwt|nationalid|natregno|email|phone|_csrf)$/i;

/** Keeps the path, drops the values of sensitive query parameters. */
export function scrubUrl(raw: string): string {
  const q = raw.indexOf('?');
  if (q < 0) return raw;
  const params = new URLSearchParams(raw.slice(q + 1));
  for (const key of [...params.keys()]) if (sensitiveQuery.test(key)) params.set(key, '[Redacted]');
  return `${raw.slice(0, q)}?${params.toString()}`;
}

export function createLogger(options: { level: string; name: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: redactPaths, censor },
      serializers: { err: errorSerializer },
    },
    destination,
  );
}
