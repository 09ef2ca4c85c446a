import { createPrivateKey, randomUUID } from 'node:crypto';
import type { JwtBearerData } from '@platform/core';
import { SignJWT } from 'jose';

/** Lifetime of a JWT bearer assertion: long enough for one token request, short enough to be useless later. */
const assertionLifetimeSeconds = 300;

/**
 * The newest assertion signed for each configuration (keyed by its data object, which lives as long as the decoded
 * configuration does): a connector's words are redacted of it (connector-secrets.ts), should an upstream echo it.
 */
const lastAssertions = new WeakMap<JwtBearerData, string>();

export const lastAssertionOf = (data: JwtBearerData): string | undefined => lastAssertions.get(data);

/** RFC 7523 assertion: the configured claims plus fresh `iat`, `exp` and `jti`, signed RS256. */
export const signJwtAssertion = async (data: JwtBearerData): Promise<string> => {
  // createPrivateKey reads PKCS#8 and PKCS#1 PEM alike.
  const key = createPrivateKey(data.signatureConfig.privateKey);
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ ...data.jwtPayload })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + assertionLifetimeSeconds)
    .setJti(randomUUID())
    .sign(key);
  lastAssertions.set(data, assertion);
  return assertion;
};
