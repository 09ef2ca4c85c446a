import { describe, expect, it } from 'vitest';
import { isWellFormedText, MALFORMED_TEXT_MESSAGE, malformedTextErrors } from './text.ts';

describe('well-formed text', () => {
  it('refuses U+0000 and unpaired surrogates, accepts pairs and every other character', () => {
    expect(isWellFormedText('plain, ümlaut, 😀, \u0001, \uffff')).toBe(true);
    expect(isWellFormedText('a\u0000b')).toBe(false);
    expect(isWellFormedText('\ud800')).toBe(false);
    expect(isWellFormedText('x\udc00')).toBe(false);
    expect(isWellFormedText('\ud83d\ude00\ud83d')).toBe(false);
    expect(isWellFormedText('\ude00\ud83d')).toBe(false);
  });

  it('names every bad string and key of a value by its path', () => {
    const value = JSON.parse(
      '{"name":"ok","options":{"k\\u0000":"v","x":"\\ud800"},"list":[1,"fine",{"deep":"\\udfff"}]}',
    );
    expect(malformedTextErrors(value)).toEqual({
      'options.k\u0000': [MALFORMED_TEXT_MESSAGE],
      'options.x': [MALFORMED_TEXT_MESSAGE],
      'list[2].deep': [MALFORMED_TEXT_MESSAGE],
    });
    expect(malformedTextErrors('\u0000', 'body')).toEqual({ body: [MALFORMED_TEXT_MESSAGE] });
    expect(malformedTextErrors({ a: ['ok'] })).toEqual({});
  });

  it('walks deeply nested values without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}`);
    expect(Object.keys(malformedTextErrors(deep))).toHaveLength(1);
  });
});
