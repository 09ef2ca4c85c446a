import { createHmac, timingSafeEqual } from 'node:crypto';

/** What the demo connectors authorize with: client credentials for media, a static key for data. */
export type StandInCredentials = {
  clientId: string;
  clientSecret: string;
  apiKeyHeader: string;
  apiKey: string;
  /** A bearer token this stand-in issued and that has not expired. */
  verifyToken(token: string, nowSeconds: number): boolean;
  issueToken(nowSeconds: number, lifetimeSeconds: number): string;
};

/**
 * Derived from the platform's secrets key, so they survive a restart (the stored demo authorizations keep working)
 * and nobody can guess them; tokens are signed, so the stand-in keeps no state.
 */
export const standInCredentials = (secretsKey: string): StandInCredentials => {
  const derive = (label: string) =>
    createHmac('sha256', secretsKey).update(`stand-in:${label}`).digest('base64url');
  const tokenKey = derive('token');
  const sign = (payload: string) => createHmac('sha256', tokenKey).update(payload).digest('base64url');
  return {
    clientId: 'stand-in-media',
    clientSecret: derive('client-secret'),
    apiKeyHeader: 'X-Api-Key',
    apiKey: derive('api-key'),
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
