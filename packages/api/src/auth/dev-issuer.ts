import { createHmac } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
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
 * JWKS served by the server itself, tokens minted for local use, and a sign-in page with the authorization code
 * + PKCE flow for the console (docs/authentication.md). Never started in production.
 */
export type DevIssuer = {
  readonly issuer: string;
  readonly keys: JWTVerifyGetKey;
  readonly jwks: { keys: JWK[] };
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  discovery(): Record<string, unknown>;
  mint(claims: { sub: string; roles: readonly string[]; ttlSeconds: number }): Promise<string>;
  /** An OpenID Connect ID token for `clientId`: who signed in, for the client's own display. */
  mintIdToken(claims: {
    sub: string;
    clientId: string;
    nonce: string | undefined;
    ttlSeconds: number;
  }): Promise<string>;
  /**
   * A value only this issuer's signing key yields for `label`: for development stand-ins whose credentials must stay
   * the same across restarts, replicas and a SECRETS_KEY rotation (the key is the same wherever the issuer runs).
   */
  deriveSecret(label: string): string;
};

/** Paths of the sign-in flow, on the server itself. */
export const DEV_AUTHORIZE_PATH = '/oauth/authorize';
export const DEV_TOKEN_PATH = '/oauth/token';

const ALG = 'ES256';

const newKey = async (): Promise<JWK> => {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = ALG;
  return jwk;
};

const loadOrCreateKey = async (dataDir: string): Promise<JWK> => {
  const file = join(dataDir, 'dev-signing-key.json');
  try {
    const key = JSON.parse(await readFile(file, 'utf8')) as JWK;
    // A private key left readable by others (an earlier version, a copy) is closed, as secrets.key is.
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const jwk = await newKey();
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
};

/** Where the signing key lives when not in DATA_DIR: returns the stored key, storing `create()`'s when none is. */
export type DevKeyStore = (create: () => Promise<JWK>) => Promise<JWK>;

export const createDevIssuer = async (options: {
  dataDir: string;
  issuer: string;
  audience: string;
  /** PostgreSQL: the key lives in the database, so every replica signs and verifies with the same one. */
  keyStore?: DevKeyStore;
}): Promise<DevIssuer> => {
  const privateJwk = options.keyStore
    ? await options.keyStore(newKey)
    : await loadOrCreateKey(options.dataDir);
  const { d: _private, ...publicJwk } = privateJwk;
  const signingKey = await importJWK(privateJwk, ALG);
  const jwks = { keys: [{ ...publicJwk, use: 'sig' }] };
  const issuer = options.issuer.replace(/\/$/, '');
  const authorizationEndpoint = `${issuer}${DEV_AUTHORIZE_PATH}`;
  const tokenEndpoint = `${issuer}${DEV_TOKEN_PATH}`;
  const kid = privateJwk.kid ?? 'dev';
  return {
    issuer,
    deriveSecret: (label) =>
      createHmac('sha256', privateJwk.d ?? '')
        .update(`derived:${label}`)
        .digest('base64url'),
    keys: createLocalJWKSet(jwks),
    jwks,
    authorizationEndpoint,
    tokenEndpoint,
    discovery: () => ({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      authorization_endpoint: authorizationEndpoint,
      token_endpoint: tokenEndpoint,
      id_token_signing_alg_values_supported: [ALG],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['openid'],
      subject_types_supported: ['public'],
    }),
    mintIdToken: ({ sub, clientId, nonce, ttlSeconds }) =>
      new SignJWT(nonce === undefined ? {} : { nonce })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(signingKey),
    mint: ({ sub, roles, ttlSeconds }) =>
      new SignJWT({ roles: [...roles] })
        .setProtectedHeader({ alg: ALG, kid, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(options.audience)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .setJti(crypto.randomUUID())
        .sign(signingKey),
  };
};
