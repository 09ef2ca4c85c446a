import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTVerifyGetKey,
  SignJWT,
} from 'jose';

/**
 * The built-in development issuer (docs/configuration.md): a signing key kept in DATA_DIR, its discovery document and
 * JWKS served by the server itself, and tokens minted for local use. Never started in production.
 */
export type DevIssuer = {
  readonly issuer: string;
  readonly keys: JWTVerifyGetKey;
  readonly jwks: { keys: JWK[] };
  discovery(): Record<string, unknown>;
  mint(claims: { sub: string; roles: string[]; ttlSeconds: number }): Promise<string>;
};

const ALG = 'ES256';

const loadOrCreateKey = async (dataDir: string): Promise<JWK> => {
  const file = join(dataDir, 'dev-signing-key.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as JWK;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = ALG;
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
};

export const createDevIssuer = async (options: {
  dataDir: string;
  issuer: string;
  audience: string;
}): Promise<DevIssuer> => {
  const privateJwk = await loadOrCreateKey(options.dataDir);
  const { d: _private, ...publicJwk } = privateJwk;
  const signingKey = await importJWK(privateJwk, ALG);
  const jwks = { keys: [{ ...publicJwk, use: 'sig' }] };
  const issuer = options.issuer.replace(/\/$/, '');
  return {
    issuer,
    keys: createLocalJWKSet(jwks),
    jwks,
    discovery: () => ({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: [ALG],
      response_types_supported: ['token'],
      subject_types_supported: ['public'],
    }),
    mint: ({ sub, roles, ttlSeconds }) =>
      new SignJWT({ roles })
        .setProtectedHeader({ alg: ALG, kid: privateJwk.kid ?? 'dev', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(options.audience)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .setJti(crypto.randomUUID())
        .sign(signingKey),
  };
};
