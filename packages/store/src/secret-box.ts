import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ServiceError, ValidationError } from '@platform/core';
import type { SecretBox } from './types.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

type Key = { id: string; bytes: Buffer };

/** First 8 hex characters of sha256(key): names the key inside each sealed value without revealing it. */
export const secretKeyId = (key: Buffer): string =>
  createHash('sha256').update(key).digest('hex').slice(0, 8);

const decodeKey = (keyBase64: string): Key => {
  const bytes = Buffer.from(keyBase64.trim(), 'base64');
  if (bytes.length !== 32) {
    throw new ValidationError('The secrets key must be 32 bytes, base64 encoded.', {
      SECRETS_KEY: [`decodes to ${bytes.length} bytes, expected 32`],
    });
  }
  return { id: secretKeyId(bytes), bytes };
};

/** A sealed value that cannot be opened: tampered with, truncated, or sealed under a key that is not configured. */
export class SecretOpenError extends ServiceError {
  constructor(why: string) {
    // INTERNAL: a caller can do nothing about it; the operator has to supply the right key.
    super('INTERNAL', `A stored secret cannot be opened: ${why}.`);
    this.name = 'SecretOpenError';
  }
}

const unreadable = (why: string) => new SecretOpenError(why);

/**
 * AES-256-GCM under `currentKeyBase64`, sealed as `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url parts).
 * Values sealed under one of `previousKeys` still open, so a key can be rotated without rewriting every row at once.
 */
export const createSecretBox = (
  currentKeyBase64: string,
  previousKeys: readonly string[] = [],
): SecretBox => {
  const current = decodeKey(currentKeyBase64);
  const keys = new Map<string, Key>();
  for (const key of [current, ...previousKeys.map(decodeKey)]) if (!keys.has(key.id)) keys.set(key.id, key);

  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
      // The version and key id are bound as associated data: moving a value to another envelope fails to open.
      cipher.setAAD(Buffer.from(`${VERSION}.${current.id}`));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, current.id, iv.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const parts = sealed.split('.');
      const [version, keyId, ivText, bodyText] = parts;
      if (parts.length !== 4 || version !== VERSION || !keyId || !ivText || bodyText === undefined) {
        throw unreadable('not a sealed value');
      }
      const key = keys.get(keyId);
      if (!key) throw unreadable(`it was sealed under key ${keyId}, which is not configured`);
      const iv = Buffer.from(ivText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw unreadable('the envelope is malformed');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
        decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(body.subarray(0, body.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw unreadable('it was altered or sealed under another key');
      }
    },
  };
};
