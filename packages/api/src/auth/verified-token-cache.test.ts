import { describe, expect, it } from 'vitest';
import { createVerifiedTokenCache } from './verified-token-cache.ts';

const caller = { userId: 'u|1', roles: new Set(['platform:read']) };

describe('verified token cache', () => {
  it('answers only inside the validity window the verifier accepts, tolerance included', () => {
    let now = 1_000_000_000;
    const cache = createVerifiedTokenCache(5, () => now);
    cache.set('t', caller, { exp: 1_000_100, nbf: 1_000_010 });
    now = 1_000_004_000; // before nbf − 5 s
    expect(cache.get('t')).toBeUndefined();
    now = 1_000_005_000;
    expect(cache.get('t')).toBe(caller);
    now = 1_000_104_999;
    expect(cache.get('t')).toBe(caller);
    now = 1_000_105_000; // exp + 5 s: a fresh check would refuse it, and so does the cache
    expect(cache.get('t')).toBeUndefined();
    expect(cache.get('other')).toBeUndefined();
  });

  it('does not keep tokens without an expiry', () => {
    const cache = createVerifiedTokenCache(0, () => 0);
    cache.set('t', caller, {});
    expect(cache.get('t')).toBeUndefined();
  });
});
