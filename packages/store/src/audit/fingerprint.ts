import { createHmac, hkdfSync } from 'node:crypto';

/** Turns a secret into what the audit trail shows of it: `sha256:<first 8 hex>`. */
export type Fingerprint = (value: string) => string;

/**
 * Fingerprints under a key of the platform's: HMAC-SHA256 keyed by a key derived (HKDF) from the sealing entry of
 * SECRETS_KEY (the first one). Equal values give equal fingerprints, so "set to the same value" is visible; without
 * the key nothing can be guessed from one, not even a short password. A new first key gives new fingerprints.
 */
export const createFingerprint = (secretsKeySetting: string): Fingerprint => {
  const sealing = secretsKeySetting.split(',')[0]?.trim() ?? '';
  const key = Buffer.from(hkdfSync('sha256', sealing, 'platform', 'audit fingerprints', 32));
  return (value) => `sha256:${createHmac('sha256', key).update(value, 'utf8').digest('hex').slice(0, 8)}`;
};
