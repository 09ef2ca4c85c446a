import { createHmac, hkdfSync } from 'node:crypto';

/** Turns a secret into what the audit trail shows of it: `sha256:<first 8 hex>`. */
export type Fingerprint = (value: string) => string;

/**
 * Fingerprints under a key of the platform's: HMAC-SHA256 keyed by a key derived (HKDF) from the bytes of the sealing
 * key (SECRETS_KEY's first). Equal values give equal fingerprints, so "set to the same value" is visible; without the
 * key nothing can be guessed from one, not even a short password. A new first key gives new fingerprints; the same key
 * written another way (a bare key, or `default:` the same key) gives the same ones.
 */
export const createFingerprint = (sealingKey: Uint8Array): Fingerprint => {
  const key = Buffer.from(hkdfSync('sha256', sealingKey, 'platform', 'audit fingerprints', 32));
  return (value) => `sha256:${createHmac('sha256', key).update(value, 'utf8').digest('hex').slice(0, 8)}`;
};
