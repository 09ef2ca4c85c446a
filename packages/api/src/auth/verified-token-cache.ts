import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../services/context.ts';

const MAX_ENTRIES = 10_000;

type Entry = { caller: Caller; notBefore: number; expiresAt: number };

/**
 * Callers of tokens whose signature and claims were verified, keyed by the SHA-256 of the token (the key held in
 * memory is not itself a credential). An entry answers only inside the window the verifier itself accepts
 * (`nbf` − tolerance ≤ now ≤ `exp` + tolerance), so a cached token stops working exactly when a fresh check would
 * refuse it; tokens without `exp` are not cached, since nothing would ever end their entry.
 */
export const createVerifiedTokenCache = (toleranceSeconds: number, now: () => number = Date.now) => {
  const cache = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  // Clients send the same token request after request: the last token's key is remembered, so the hash is
  // computed only when the token changes.
  let lastToken: string | undefined;
  let lastKey = '';
  const keyOf = (token: string) => {
    if (token !== lastToken) {
      lastKey = createHash('sha256').update(token).digest('base64url');
      lastToken = token;
    }
    return lastKey;
  };
  return {
    get(token: string): Caller | undefined {
      const key = keyOf(token);
      const entry = cache.get(key);
      if (!entry) return undefined;
      const seconds = now() / 1000;
      if (seconds >= entry.expiresAt) {
        cache.delete(key);
        return undefined;
      }
      return seconds >= entry.notBefore ? entry.caller : undefined;
    },
    set(token: string, caller: Caller, claims: JWTPayload): void {
      if (typeof claims.exp !== 'number') return;
      cache.set(keyOf(token), {
        caller,
        notBefore: typeof claims.nbf === 'number' ? claims.nbf - toleranceSeconds : 0,
        expiresAt: claims.exp + toleranceSeconds,
      });
    },
  };
};
