import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAuthorizationCodes } from './dev-authorization-codes.ts';

const verifier = 'a'.repeat(43);
const challenge = createHash('sha256').update(verifier).digest('base64url');
const grant = {
  clientId: 'platform-console',
  redirectUri: 'http://127.0.0.1:8080/console/callback',
  codeChallenge: challenge,
  nonce: 'n',
  sub: 'demo|owner',
  roles: ['platform:read'],
};
const request = { clientId: grant.clientId, redirectUri: grant.redirectUri, codeVerifier: verifier };

describe('authorization codes of the development issuer', () => {
  it('redeem once, with the PKCE verifier of their challenge', () => {
    const codes = createAuthorizationCodes();
    const code = codes.issue(grant);
    expect(codes.redeem(code, request)).toEqual(grant);
    expect(codes.redeem(code, request)).toBe('unknown or used code');
  });

  it('refuse a wrong verifier, and are spent by the attempt', () => {
    const codes = createAuthorizationCodes();
    const code = codes.issue(grant);
    expect(codes.redeem(code, { ...request, codeVerifier: 'b'.repeat(43) })).toBe('PKCE check failed');
    expect(codes.redeem(code, request)).toBe('unknown or used code');
  });

  it('refuse another client or redirect URI', () => {
    const codes = createAuthorizationCodes();
    expect(codes.redeem(codes.issue(grant), { ...request, clientId: 'other' })).toBe(
      'client or redirect_uri mismatch',
    );
    expect(codes.redeem(codes.issue(grant), { ...request, redirectUri: 'http://evil.example/cb' })).toBe(
      'client or redirect_uri mismatch',
    );
  });

  it('expire after a minute', () => {
    let now = 0;
    const codes = createAuthorizationCodes(() => now);
    const code = codes.issue(grant);
    now = 60_001;
    expect(codes.redeem(code, request)).toBe('expired code');
  });
});
