import { type AuthUsage, ForbiddenError, NotFoundError, splitSecrets } from '@platform/core';
import { type AuthConfig, isOAuth } from '../auth-config.ts';
import type { TokenService } from '../tokens/token-service.ts';
import type { ConnectorConfig, ConnectorConfigLoader } from './connector-config.ts';
import type { ExchangeCaller } from './proxy-exchange.ts';

/** A PEM body line this long or longer is listed on its own too: an echo may show the key re-wrapped. */
const PEM_LINE_MIN = 16;

const stringsOf = (value: unknown): string[] => {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
};

/** Listed once per decoded configuration (the loader keeps one object per revision): a warm run lists nothing. */
const listed = new WeakMap<AuthConfig, readonly string[]>();

const authSecretsOf = (auth: AuthConfig): readonly string[] => {
  let values = listed.get(auth);
  if (!values) {
    values = listAuthSecrets(auth);
    listed.set(auth, values);
  }
  return values;
};

/**
 * The secret fields and sealed objects of an authorization (core's splitSecrets decides which), a private key's PEM
 * body lines, and a client's credentials as HTTP Basic sends them (RFC 6749 §2.3.1: form-encoded, then base64).
 */
const listAuthSecrets = (auth: AuthConfig): string[] => {
  const { secretData } = splitSecrets(auth.type, auth.data);
  const values = Object.values(secretData).flatMap(stringsOf);
  if (auth.type === 'oAuth2JwtBearer') {
    values.push(
      ...auth.data.signatureConfig.privateKey
        .split(/\r?\n/)
        .filter((line) => line.length >= PEM_LINE_MIN && !line.startsWith('-----')),
    );
  }
  if ('clientId' in auth.data && 'clientSecret' in auth.data) {
    const form = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');
    const basic = `${form(auth.data.clientId)}:${form(auth.data.clientSecret)}`;
    values.push(
      Buffer.from(basic).toString('base64'),
      Buffer.from(`${auth.data.clientId}:${auth.data.clientSecret}`).toString('base64'),
    );
  }
  return values;
};

export type ConnectorSecretsQuery = ExchangeCaller & { usage: AuthUsage };

/**
 * Every value the proxy injects or holds as a secret for a connector, usage and caller: shared header values, the
 * usage's static key value, client secret, password, private key and sealed parameters, the caller's access and
 * refresh tokens, the newest signed assertion. The services replace each by `***` in whatever a connector's words
 * reach (docs/connector-runtime.md "Redaction"). Answered from the caches a run has just used, so it reads nothing
 * on a warm path.
 */
export const createConnectorSecrets =
  (loader: ConnectorConfigLoader, tokens: TokenService) =>
  async ({ environmentId, connectorId, caller, usage }: ConnectorSecretsQuery): Promise<string[]> => {
    let config: Pick<ConnectorConfig, 'sharedHeaders' | 'auth'>;
    try {
      config =
        loader.cached(environmentId, connectorId, usage) ??
        (await loader.load(environmentId, connectorId, usage));
    } catch (error) {
      // Any other failure (the database unavailable) is the caller's: it withholds what it cannot redact.
      if (!(error instanceof ForbiddenError || error instanceof NotFoundError)) throw error;
      // Disabled or deleted since the run began: its authorization still names what the run may have injected.
      config = { sharedHeaders: {}, auth: await loader.loadAuth(connectorId, usage) };
    }
    const values = Object.values(config.sharedHeaders);
    const auth = config.auth;
    if (auth) {
      values.push(...authSecretsOf(auth));
      if (isOAuth(auth)) values.push(...(await tokens.heldSecrets(auth, caller.userId)));
    }
    return values;
  };
