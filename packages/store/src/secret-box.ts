import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ServiceError } from '@platform/core';
import { keyFingerprint, parseSecretsKeys, type SecretsKey } from './secrets-keys.ts';
import type { SecretBox } from './types.ts';

/** The envelope this version seals: `v2.<key id>.<iv>.<ciphertext+tag>`, the key id as configured. */
const VERSION = 'v2';
/** Sealed before key ids were named: `v1.<key fingerprint>.<iv>.<ciphertext+tag>`; opened, never sealed. */
const LEGACY_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

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
 * AES-256-GCM under the first key of `secretsKey` (SECRETS_KEY: one bare base64 key, or `id:base64,...`), sealed as
 * `v2.<keyId>.<iv>.<ciphertext+tag>` (base64url parts). Values sealed under any configured key open, and so do
 * those an earlier version sealed (`v1`, named by key fingerprint): a key is rotated without rewriting every value
 * at once (`platform-server rotate-secrets` rewrites them in the background).
 */
export const createSecretBox = (secretsKey: string): SecretBox => {
  const keys = parseSecretsKeys(secretsKey);
  const sealing = keys[0] as SecretsKey;
  const byId = new Map(keys.map((key) => [key.id, key] as const));
  const byFingerprint = new Map(keys.map((key) => [keyFingerprint(key.bytes), key] as const));
  const sealingAad = Buffer.from(`${VERSION}.${sealing.id}`);

  return {
    sealingKeyId: sealing.id,
    keyIds: keys.map((key) => key.id),
    // A `v1` envelope names its key's fingerprint: the configured key with it, or the fingerprint when none has it.
    keyIdOf: (version, envelopeId) =>
      version === LEGACY_VERSION ? (byFingerprint.get(envelopeId)?.id ?? envelopeId) : envelopeId,
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealing.bytes, iv);
      // The version and key id are bound as associated data: moving a value to another envelope fails to open.
      cipher.setAAD(sealingAad);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, sealing.id, iv.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const parts = sealed.split('.');
      const [version, envelopeId, ivText, bodyText] = parts;
      if (
        parts.length !== 4 ||
        (version !== VERSION && version !== LEGACY_VERSION) ||
        !envelopeId ||
        !ivText ||
        bodyText === undefined
      ) {
        throw unreadable('not a sealed value');
      }
      const key = version === VERSION ? byId.get(envelopeId) : byFingerprint.get(envelopeId);
      if (!key) {
        throw unreadable(`it was sealed under key ${envelopeId}, which SECRETS_KEY does not hold`);
      }
      const iv = Buffer.from(ivText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw unreadable('the envelope is malformed');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
        decipher.setAAD(Buffer.from(`${version}.${envelopeId}`));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(body.subarray(0, body.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw unreadable(
          `it was altered, or sealed under another key than the one SECRETS_KEY names ${key.id}`,
        );
      }
    },
  };
};

/** How every value sealed under `keyId` by this version begins (a SQL `like` prefix: ids hold no wildcard). */
export const sealedUnderPrefix = (keyId: string): string => `${VERSION}.${keyId}.`;
