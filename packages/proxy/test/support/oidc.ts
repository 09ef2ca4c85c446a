/// <reference path="./oidc-provider.d.ts" />
import { generateKeyPairSync } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { type Listening, listen } from './servers.ts';

export const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export type Oidc = Listening & {
  issuer: string;
  tokenEndpoint: string;
  authorizationEndpoint: string;
  /** Access tokens issued, in order (opaque tokens: their value is their jti). */
  issued: string[];
  /** Token endpoint requests per grant type. */
  grants: Map<string, number>;
  /** The verified claims of every JWT bearer assertion received. */
  assertions: Record<string, unknown>[];
  privateKeyPem: string;
};

export const oidcClients = {
  clientCredentials: { id: 'cc-client', secret: 'cc-secret-value-1234' },
  password: { id: 'pw-client', secret: 'pw-secret-value-1234', username: 'alice', password: 'alice-pw-5678' },
  code: { id: 'code-client', secret: 'code-secret-value-1234' },
  jwt: { id: 'jwt-client' },
};

/**
 * A real OpenID provider on loopback: client credentials built in; password and JWT bearer added with
 * registerGrantType (the assertion's RS256 signature checked against the public key); authorization code
 * with refresh tokens and the development login/consent pages.
 */
export const startOidc = async (
  redirectUris: string[],
  /** How the authorization-code client authenticates at the token endpoint. */
  codeClientAuthMethod: 'client_secret_basic' | 'client_secret_post' = 'client_secret_post',
): Promise<Oidc> => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const verificationKey = await importSPKI(
    publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    'RS256',
  );
  let handler: (
    req: Parameters<Parameters<typeof listen>[0]>[0],
    res: Parameters<Parameters<typeof listen>[0]>[1],
  ) => void = () => {};
  const listening = await listen((req, res) => handler(req, res));
  const issuer = listening.url;
  const grants = new Map<string, number>();
  const issued: string[] = [];
  const assertions: Record<string, unknown>[] = [];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: oidcClients.clientCredentials.id,
        client_secret: oidcClients.clientCredentials.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: oidcClients.password.id,
        client_secret: oidcClients.password.secret,
        grant_types: ['password'],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: oidcClients.jwt.id,
        token_endpoint_auth_method: 'none',
        grant_types: [jwtBearerGrant],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: oidcClients.code.id,
        client_secret: oidcClients.code.secret,
        token_endpoint_auth_method: codeClientAuthMethod,
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: redirectUris,
        response_types: ['code'],
      },
    ],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: true } },
    scopes: ['api', 'offline_access'],
    issueRefreshToken: async () => true,
    ttl: { ClientCredentials: 600, AccessToken: 600, RefreshToken: 3600 },
    cookies: { keys: ['test-cookie-key'] },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });

  const issue = async (ctx: KoaContextWithOIDC, scope?: string) => {
    const token = new ctx.oidc.provider.ClientCredentials({ client: ctx.oidc.client, scope });
    const value = await token.save();
    ctx.body = { access_token: value, token_type: 'Bearer', expires_in: token.expiration, scope };
  };

  provider.registerGrantType(
    'password',
    async (ctx) => {
      const { username, password } = ctx.oidc.params;
      if (username !== oidcClients.password.username || password !== oidcClients.password.password) {
        throw new errors.InvalidGrant('wrong resource owner credentials');
      }
      await issue(ctx, ctx.oidc.params.scope);
    },
    ['username', 'password', 'scope'],
  );

  provider.registerGrantType(
    jwtBearerGrant,
    async (ctx) => {
      try {
        const { payload } = await jwtVerify(ctx.oidc.params.assertion ?? '', verificationKey, {
          algorithms: ['RS256'],
          audience: `${issuer}/token`,
        });
        if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
        assertions.push({ ...payload, extra: ctx.oidc.params.extra });
      } catch {
        throw new errors.InvalidGrant('invalid assertion');
      }
      await issue(ctx);
    },
    ['assertion', 'extra'],
  );

  for (const event of ['grant.success', 'grant.error']) {
    provider.on(event, (ctx: never) => {
      const grantType = (ctx as { oidc: { params: { grant_type: string } } }).oidc.params.grant_type;
      grants.set(grantType, (grants.get(grantType) ?? 0) + 1);
    });
  }
  for (const event of ['access_token.issued', 'client_credentials.saved', 'access_token.saved']) {
    provider.on(event, (token: never) => {
      issued.push((token as { jti: string }).jti);
    });
  }
  handler = provider.callback();
  return {
    ...listening,
    issuer,
    tokenEndpoint: `${issuer}/token`,
    authorizationEndpoint: `${issuer}/auth`,
    grants,
    issued,
    assertions,
    privateKeyPem,
  };
};

/**
 * Plays the user's browser through the provider's development login and consent pages, over HTTP with its
 * cookies, and returns the URL the provider finally redirects to (the platform's callback, not yet followed).
 */
export const loginThroughBrowser = async (authorizationUrl: string, login: string): Promise<URL> => {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    const response = await send(url);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next.href;
      continue;
    }
    const html = await response.text();
    const form: Record<string, string> = html.includes('name="login"')
      ? { prompt: 'login', login, password: 'any' }
      : { prompt: 'consent' };
    const submitted = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const after = new URL(submitted.headers.get('location') ?? url, url);
    if (after.origin !== origin) return after;
    url = after.href;
  }
  throw new Error('the login did not come back to the redirect URI');
};
