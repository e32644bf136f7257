// Authenticated encryption (AES-256-GCM) of the few secrets a background job needs, under a key from
// configuration (JOB_SECRET_KEY): what lands in Redis is unreadable and tamper-evident without the key.
// The context (e.g. which prospect and run a secret belongs to) is bound as associated data, so a sealed
// value copied to another key of the store does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that does not open: tampered with, sealed under another key or for another context. */
export class SealedSecretError extends Error {
  constructor(message = 'sealed secret refused') {
    super(message);
    this.name = 'SealedSecretError';
  }
}

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
}

/** `v1.<base64url of iv | tag | ciphertext>`; the version leaves room for another scheme or key later. */
export function sealSecret(key: Buffer, plaintext: string, context: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** The plaintext, or SealedSecretError when the value does not authenticate under this key and context. */
export function openSecret(key: Buffer, sealed: string, context: string): string {
  checkKey(key);
  const [version, payload, ...rest] = sealed.split('.');
  if (version !== VERSION || payload === undefined || rest.length > 0) throw new SealedSecretError('unknown sealed secret format');
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SealedSecretError('sealed secret too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError();
  }
}
