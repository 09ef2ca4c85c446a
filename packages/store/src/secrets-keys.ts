import { createHash } from 'node:crypto';
import { ValidationError } from '@platform/core';

/** One key of SECRETS_KEY: its id (what sealed values name) and its 32 bytes. */
export type SecretsKey = { readonly id: string; readonly bytes: Buffer; readonly base64: string };

/** The id a bare key (SECRETS_KEY's one-key form, and the embedded `secrets.key` file) goes by. */
export const DEFAULT_KEY_ID = 'default';

const KEY_ID = /^[a-z0-9-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * First 8 hex characters of sha256(key): the name values sealed before key ids existed (envelope `v1`) carry, so
 * they are still found under the configured key they were sealed with, without revealing it.
 */
export const keyFingerprint = (key: Buffer): string =>
  createHash('sha256').update(key).digest('hex').slice(0, 8);

/** The rule broken, for `SECRETS_KEY`; never the value, which is a credential. */
const invalid = (rule: string) =>
  new ValidationError(`SECRETS_KEY is not valid: ${rule}.`, { SECRETS_KEY: [rule] });

const decode = (text: string, which: string): Buffer => {
  const bytes = BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (bytes?.length !== 32) {
    throw invalid(`${which} must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
  }
  return bytes;
};

/**
 * Parses SECRETS_KEY: one bare base64 key (id `default`), or `id1:base64,id2:base64` with ids of `[a-z0-9-]{1,32}`,
 * each given once. The first key seals; every one opens (docs/configuration.md, "Secrets keys").
 */
export const parseSecretsKeys = (text: string): SecretsKey[] => {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && !entries[0]?.includes(':')) {
    const base64 = entries[0] ?? '';
    return [{ id: DEFAULT_KEY_ID, bytes: decode(base64, 'the key'), base64 }];
  }
  const keys: SecretsKey[] = [];
  entries.forEach((entry, index) => {
    const which = `key ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) throw invalid(`${which} must be written id:base64 when several keys are given`);
    const id = entry.slice(0, colon).trim();
    const base64 = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(id)) {
      throw invalid(`${which}'s id must be 1 to 32 of a-z, 0-9 and -`);
    }
    if (keys.some((key) => key.id === id)) throw invalid(`the key id ${id} is given twice`);
    keys.push({ id, bytes: decode(base64, `key ${id}`), base64 });
  });
  return keys;
};

/** The rule SECRETS_KEY's text breaks, or undefined when it parses (for configuration schemas). */
export const secretsKeysProblem = (text: string): string | undefined => {
  try {
    parseSecretsKeys(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors?.SECRETS_KEY?.[0];
  }
};
