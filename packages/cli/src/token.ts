import { HeaderValue } from '@platform/core';
import type { CliEnv } from './env.ts';
import { CliError, UsageError } from './errors.ts';
import { readSession, sessionPath } from './session.ts';

export type TokenSource = 'option' | 'environment' | 'session';
export type ResolvedToken = { token: string; source: TokenSource };

/** Seconds of margin: a token about to expire would fail on its way to the server. */
const EXPIRY_MARGIN = 30;

const loginHint = (issuer?: string, clientId?: string): string =>
  issuer && clientId
    ? `connector-cli login --issuer ${issuer} --client-id ${clientId}`
    : 'connector-cli login --issuer <url> --client-id <id>';

/**
 * A token goes in an Authorization header: a line break or another control character (a token pasted with the line
 * after it) would fail there as if the network had, so it is refused here, naming where it came from, never shown.
 */
const carried = (token: string, from: string): string => {
  if (!HeaderValue.safeParse(token.trim()).success) {
    throw new UsageError(
      `${from} holds a line break, a control character or a character beyond Latin-1, which a header cannot carry; pass the token alone, on one line`,
    );
  }
  return token.trim();
};

/**
 * docs/connector-cli.md: `--token`, else `CONNECTOR_CLI_TOKEN`, else the session saved by `login`.
 * `required: false` (dry runs) returns `undefined` instead of failing when there is none.
 */
export const resolveToken = async (
  option: string | undefined,
  env: CliEnv,
  options: { required: boolean; now?: number },
): Promise<ResolvedToken | undefined> => {
  if (option !== undefined && option !== '') return { token: carried(option, '--token'), source: 'option' };
  if (env.token !== undefined)
    return { token: carried(env.token, 'CONNECTOR_CLI_TOKEN'), source: 'environment' };
  const path = sessionPath(env.configHome);
  const session = await readSession(path);
  if (session === undefined) {
    if (!options.required) return undefined;
    throw new CliError(
      'NOT_LOGGED_IN',
      `no token: run ${loginHint()} first, or pass --token or set CONNECTOR_CLI_TOKEN`,
    );
  }
  const now = options.now ?? Date.now() / 1000;
  if (session.expiresAt !== undefined && session.expiresAt - EXPIRY_MARGIN <= now) {
    if (!options.required) return undefined;
    const when = new Date(session.expiresAt * 1000).toISOString();
    throw new CliError(
      'SESSION_EXPIRED',
      `the session saved by connector-cli login expired at ${when}; run ${loginHint(session.issuer, session.clientId)} again, or pass --token`,
    );
  }
  return { token: session.accessToken, source: 'session' };
};
