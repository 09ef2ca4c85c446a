import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/**
 * A real OpenID issuer on loopback for the end-to-end tests: discovery and JWKS served over HTTP apart from the
 * server under test, tokens signed with its RS256 key. `rogueKey` signs tokens the issuer never published.
 */
export type TestIssuer = {
  url: string;
  audience: string;
  sign(claims: {
    sub?: string;
    roles?: string[];
    scope?: string;
    /** A string, or none for a token without `aud`. */
    audience?: string | null;
    issuer?: string;
    expiresIn?: number;
    /** No `exp` claim at all. */
    noExpiry?: boolean;
    notBefore?: number;
    rogue?: boolean;
  }): Promise<string>;
  close(): Promise<void>;
};

export const startTestIssuer = async (audience = 'platform-api'): Promise<TestIssuer> => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const rogue = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }));
    } else if (req.url === '/jwks') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    audience,
    sign: (claims) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({
        ...(claims.roles ? { roles: claims.roles } : {}),
        ...(claims.scope ? { scope: claims.scope } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(claims.issuer ?? url)
        .setIssuedAt(now - 5);
      if (claims.audience !== null) jwt.setAudience(claims.audience ?? audience);
      if (!claims.noExpiry) jwt.setExpirationTime(now + (claims.expiresIn ?? 600));
      if (claims.sub !== undefined) jwt.setSubject(claims.sub);
      if (claims.notBefore !== undefined) jwt.setNotBefore(now + claims.notBefore);
      const key: CryptoKey = claims.rogue ? rogue.privateKey : privateKey;
      return jwt.sign(key);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
