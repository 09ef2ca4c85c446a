import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What the development issuer's sign-in page granted, waiting for the token endpoint. */
export type Grant = {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly nonce: string | undefined;
  readonly sub: string;
  readonly roles: readonly string[];
};

/** Why a code was not redeemed; the token endpoint answers `invalid_grant` with it. */
export type RedeemFailure =
  | 'unknown or used code'
  | 'expired code'
  | 'client or redirect_uri mismatch'
  | 'PKCE check failed';

/** An OAuth code lives this long (RFC 6749 recommends at most 10 minutes; a browser redirect takes seconds). */
const CODE_TTL_MS = 60_000;
/** Codes nobody redeems are dropped; the page is for local use, so this bound is never reached in practice. */
const MAX_PENDING = 1000;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Authorization codes of the development issuer (docs/authentication.md): random, single use, valid one minute,
 * bound to the client, the redirect URI and the PKCE S256 challenge. Kept in memory: a restart forgets them.
 */
export const createAuthorizationCodes = (now: () => number = Date.now) => {
  const pending = new Map<string, Grant & { expiresAt: number }>();
  return {
    issue(grant: Grant): string {
      for (const [code, entry] of pending) if (entry.expiresAt <= now()) pending.delete(code);
      if (pending.size >= MAX_PENDING) {
        const oldest = pending.keys().next().value;
        if (oldest !== undefined) pending.delete(oldest);
      }
      const code = randomBytes(32).toString('base64url');
      pending.set(code, { ...grant, expiresAt: now() + CODE_TTL_MS });
      return code;
    },
    /** Takes the code out whatever the outcome: a code is tried once. */
    redeem(
      code: string,
      request: { clientId: string; redirectUri: string; codeVerifier: string },
    ): Grant | RedeemFailure {
      const entry = pending.get(code);
      pending.delete(code);
      if (!entry) return 'unknown or used code';
      if (entry.expiresAt <= now()) return 'expired code';
      if (entry.clientId !== request.clientId || entry.redirectUri !== request.redirectUri) {
        return 'client or redirect_uri mismatch';
      }
      if (!sameText(s256(request.codeVerifier), entry.codeChallenge)) return 'PKCE check failed';
      const { expiresAt: _expiresAt, ...granted } = entry;
      return granted;
    },
  };
};

export type AuthorizationCodes = ReturnType<typeof createAuthorizationCodes>;
