import { describe, expect, it } from 'vitest';
import { ACTIVITY_TEXT_MAX_BYTES, boundText, createRedactor, REDACTED } from './redaction.ts';

const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

describe('createRedactor', () => {
  it('replaces each secret in every spelling, the longer first', () => {
    const redact = createRedactor(['key-123', 'key-123-and-more', 'a/b "c"\n', '']);
    expect(redact('x key-123-and-more y key-123 z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
    expect(redact(JSON.stringify({ echoed: 'a/b "c"\n' }))).toBe(`{"echoed":"${REDACTED}"}`);
    expect(redact(`?k=${encodeURIComponent('a/b "c"\n')}`)).toBe(`?k=${REDACTED}`);
    expect(redact('nothing here')).toBe('nothing here');
  });

  it('replaces the first characters of a secret that end a text cut short', () => {
    const redact = createRedactor(['secret-value-98765']);
    expect(redact('failed: secret-val')).toBe(`failed: ${REDACTED}`);
    expect(redact('failed: sec')).toBe('failed: sec');
  });
});

describe('boundText', () => {
  it('keeps a short text, cuts a long one to the byte bound on a character boundary', () => {
    expect(boundText('short')).toBe('short');
    const cut = boundText('é'.repeat(5_000_000));
    expect(bytes(cut)).toBeLessThanOrEqual(ACTIVITY_TEXT_MAX_BYTES);
    expect(cut.endsWith('é…')).toBe(true);
    expect(bytes(boundText('x'.repeat(1024)))).toBe(1024);
    expect(boundText('x'.repeat(1025)).endsWith('…')).toBe(true);
  });
});
