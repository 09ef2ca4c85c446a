import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '@platform/core';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretOpenError, secretKeyId } from './secret-box.ts';
import { loadOrCreateSecretsKey } from './secrets-key.ts';

const newKey = () => randomBytes(32).toString('base64');

describe('createSecretBox', () => {
  it('round-trips, with a fresh IV every time and the key id in the envelope', () => {
    const key = newKey();
    const box = createSecretBox(key);
    const a = box.seal('s3cret ✓');
    const b = box.seal('s3cret ✓');
    expect(a).not.toEqual(b);
    expect(a).not.toContain('s3cret');
    expect(a.split('.')).toHaveLength(4);
    expect(a.split('.')[0]).toBe('v1');
    expect(a.split('.')[1]).toBe(secretKeyId(Buffer.from(key, 'base64')));
    expect(box.open(a)).toBe('s3cret ✓');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('detects tampering with the ciphertext, the IV or the key id', () => {
    const box = createSecretBox(newKey());
    const sealed = box.seal('value');
    const [v, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => box.open([v, id, iv, flip(body)].join('.'))).toThrow(SecretOpenError);
    expect(() => box.open([v, id, flip(iv), body].join('.'))).toThrow(SecretOpenError);
    expect(() => box.open([v, 'deadbeef', iv, body].join('.'))).toThrow(SecretOpenError);
    expect(() => box.open('not sealed')).toThrow(SecretOpenError);
    expect(() => box.open(sealed.slice(0, -4))).toThrow(SecretOpenError);
  });

  it('opens values sealed under previous keys and seals under the current one', () => {
    const oldKey = newKey();
    const newer = newKey();
    const sealedOld = createSecretBox(oldKey).seal('rotated');
    const box = createSecretBox(newer, [oldKey]);
    expect(box.open(sealedOld)).toBe('rotated');
    expect(box.seal('x').split('.')[1]).toBe(secretKeyId(Buffer.from(newer, 'base64')));
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

  it('rejects keys that are not 32 bytes', () => {
    expect(() => createSecretBox(randomBytes(16).toString('base64'))).toThrow(ValidationError);
    expect(() => createSecretBox(newKey(), ['short'])).toThrow(ValidationError);
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
