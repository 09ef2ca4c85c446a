import { createHmac, timingSafeEqual } from 'node:crypto';

/** What the demo connectors authorize with: client credentials for media, a static key for data. */
export type StandInCredentials = {
  clientId: string;
  /** The secret and key the demo connectors are published with. */
  clientSecret: string;
  apiKeyHeader: string;
  apiKey: string;
  /** Whether the stand-in takes this client secret, or this key: today's, or one an earlier version published. */
  takesClientSecret(secret: string): boolean;
  takesApiKey(key: string): boolean;
  /** A bearer token this stand-in issued and that has not expired. */
  verifyToken(token: string, nowSeconds: number): boolean;
  issueToken(nowSeconds: number, lifetimeSeconds: number): string;
};

/** Derives a stand-in secret for a label. */
export type Derive = (label: string) => string;

/** The derivation of the versions that keyed the stand-in's secrets with the secrets key itself (`earlierKeys`). */
export const deriveWithKey =
  (secretsKey: string): Derive =>
  (label) =>
    createHmac('sha256', secretsKey).update(`stand-in:${label}`).digest('base64url');

/**
 * Derived (`derive`, the development issuer's key) so that they survive a restart and a secrets-key rotation (the
 * stored demo authorizations keep working), and nobody can guess them; tokens are signed, so the stand-in keeps no
 * state. Secrets derived by `earlier` (demo connectors an earlier version published) are still taken.
 */
export const standInCredentials = (derive: Derive, earlier: readonly Derive[] = []): StandInCredentials => {
  const tokenKey = derive('stand-in:token');
  const sign = (payload: string) => createHmac('sha256', tokenKey).update(payload).digest('base64url');
  const clientSecret = derive('stand-in:client-secret');
  const apiKey = derive('stand-in:api-key');
  const takes = (mine: string, label: string) => (given: string) =>
    sameText(given, mine) || earlier.some((old) => sameText(given, old(label)));
  return {
    clientId: 'stand-in-media',
    clientSecret,
    apiKeyHeader: 'X-Api-Key',
    apiKey,
    takesClientSecret: takes(clientSecret, 'client-secret'),
    takesApiKey: takes(apiKey, 'api-key'),
    issueToken: (now, lifetime) => {
      const payload = `si.${now + lifetime}`;
      return `${payload}.${sign(payload)}`;
    },
    verifyToken: (token, now) => {
      const match = /^(si\.(\d+))\.([\w-]+)$/.exec(token);
      if (!match || Number(match[2]) <= now) return false;
      return sameText(match[3]!, sign(match[1]!));
    },
  };
};

export const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
