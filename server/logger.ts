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

// `name` is only redacted below the top level: pino's own `name` field names the process.
export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.name',
  '*.*.name',
  ...sensitiveKeys.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
];

// _csrf: an upload form's anti-forgery token rides in its action's query (server/csrf.ts).
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
      redact: { paths: redactPaths, censor: '[Redacted]' },
    },
    destination,
  );
}
