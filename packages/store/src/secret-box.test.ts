import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@platform/core';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretOpenError } from './secret-box.ts';
import { loadOrCreateSecretsKey } from './secrets-key.ts';
import { keyFingerprint, parseSecretsKeys, secretsKeysProblem } from './secrets-keys.ts';

const newKey = () => randomBytes(32).toString('base64');

/** A value as the version before key ids sealed it: `v1.<fingerprint>`, the fingerprint bound as associated data. */
const sealV1 = (keyBase64: string, plaintext: string): string => {
  const key = Buffer.from(keyBase64, 'base64');
  const id = keyFingerprint(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`v1.${id}`));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return ['v1', id, iv.toString('base64url'), body.toString('base64url')].join('.');
};

describe('createSecretBox', () => {
  it('round-trips, with a fresh IV every time and the key id in the envelope; a bare key is `default`', () => {
    const box = createSecretBox(newKey());
    const a = box.seal('s3cret ✓');
    const b = box.seal('s3cret ✓');
    expect(a).not.toEqual(b);
    expect(a).not.toContain('s3cret');
    expect(a.split('.')).toHaveLength(4);
    expect(a.split('.').slice(0, 2)).toEqual(['v2', 'default']);
    expect(box.sealingKeyId).toBe('default');
    expect(box.open(a)).toBe('s3cret ✓');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('detects tampering with the ciphertext, the IV or the key id', () => {
    const box = createSecretBox(`new:${newKey()},old:${newKey()}`);
    const sealed = box.seal('value');
    const [v, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => box.open([v, id, iv, flip(body)].join('.'))).toThrow(SecretOpenError);
    expect(() => box.open([v, id, flip(iv), body].join('.'))).toThrow(SecretOpenError);
    // Another configured id: the id is bound to the value, so it does not open under the other key either.
    expect(() => box.open([v, 'old', iv, body].join('.'))).toThrow(SecretOpenError);
    expect(() => box.open([v, 'deadbeef', iv, body].join('.'))).toThrow(SecretOpenError);
    expect(() => box.open('not sealed')).toThrow(SecretOpenError);
    expect(() => box.open(sealed.slice(0, -4))).toThrow(SecretOpenError);
  });

  it('seals under the first of several keys and opens under every one', () => {
    const oldKey = newKey();
    const newer = newKey();
    const sealedOld = createSecretBox(`old:${oldKey}`).seal('rotated');
    const box = createSecretBox(` new:${newer} , old:${oldKey} `);
    expect(box.keyIds).toEqual(['new', 'old']);
    expect(box.open(sealedOld)).toBe('rotated');
    const sealedNew = box.seal('x');
    expect(sealedNew.split('.').slice(0, 2)).toEqual(['v2', 'new']);
    expect(createSecretBox(`new:${newer}`).open(sealedNew)).toBe('x');
    expect(() => createSecretBox(`old:${oldKey}`).open(sealedNew)).toThrow(SecretOpenError);
  });

  it('opens values sealed before key ids existed, under whichever configured key sealed them', () => {
    const oldKey = newKey();
    const legacy = sealV1(oldKey, 'from before');
    expect(createSecretBox(oldKey).open(legacy)).toBe('from before');
    const box = createSecretBox(`new:${newKey()},old:${oldKey}`);
    expect(box.open(legacy)).toBe('from before');
    expect(box.keyIdOf('v1', keyFingerprint(Buffer.from(oldKey, 'base64')))).toBe('old');
    expect(box.keyIdOf('v1', 'deadbeef')).toBe('deadbeef');
    expect(box.keyIdOf('v2', 'old')).toBe('old');
    expect(() => createSecretBox(newKey()).open(legacy)).toThrow(SecretOpenError);
  });

  it('refuses a value sealed under a key it does not hold, with a typed error', () => {
    const sealed = createSecretBox(newKey()).seal('value');
    const other = createSecretBox(newKey());
    expect(() => other.open(sealed)).toThrow(SecretOpenError);
    try {
      other.open(sealed);
    } catch (error) {
      expect((error as SecretOpenError).code).toBe('INTERNAL');
      expect((error as Error).message).not.toContain('value');
    }
  });
});

describe('parseSecretsKeys', () => {
  const refusal = (text: string) => {
    try {
      parseSecretsKeys(text);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('takes one bare key as `default` and named keys in order', () => {
    const [a, b] = [newKey(), newKey()];
    expect(parseSecretsKeys(a).map((key) => key.id)).toEqual(['default']);
    expect(parseSecretsKeys(`k-2026:${a},default:${b}`).map((key) => key.id)).toEqual(['k-2026', 'default']);
  });

  it('names the variable and the rule, never the value', () => {
    const short = randomBytes(16).toString('base64');
    const key = newKey();
    const cases: [string, RegExp][] = [
      [short, /^SECRETS_KEY is not valid: the key must be 32 bytes, base64-encoded/],
      [`new:${key},${key}`, /key 2 must be written id:base64 when several keys are given/],
      [`New_Key:${key}`, /key 1's id must be 1 to 32 of a-z, 0-9 and -/],
      [`${'a'.repeat(33)}:${key}`, /key 1's id must be 1 to 32/],
      [`a:${key},a:${newKey()}`, /the key id a is given twice/],
      [`a:${key},b:${short}`, /key b must be 32 bytes/],
      [`a:${key},`, /key 2 must be written id:base64/],
      [`a:${key.slice(0, 20)}!${key.slice(21)}`, /key a must be 32 bytes/],
    ];
    for (const [text, rule] of cases) {
      const message = refusal(text);
      expect(message).toMatch(rule);
      expect(message).not.toContain(key);
      expect(message).not.toContain(short);
    }
    expect(secretsKeysProblem(short)).toMatch(/^the key must be 32 bytes/);
    expect(secretsKeysProblem(key)).toBeUndefined();
  });
});

describe('loadOrCreateSecretsKey', () => {
  it('creates an owner-only key once and then reads it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'store-key-'));
    try {
      const key = await loadOrCreateSecretsKey(join(dir, 'nested'));
      expect(Buffer.from(key, 'base64')).toHaveLength(32);
      expect((await stat(join(dir, 'nested', 'secrets.key'))).mode & 0o777).toBe(0o600);
      expect(await loadOrCreateSecretsKey(join(dir, 'nested'))).toBe(key);
      expect(createSecretBox(key).open(createSecretBox(key).seal('ok'))).toBe('ok');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
