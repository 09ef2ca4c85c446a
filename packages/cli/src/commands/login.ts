import type { Command } from 'commander';
import * as oidc from 'openid-client';
import type { Context } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { addTenantOption, checkTenant, requireOptions } from '../options.ts';
import { sessionPath, writeSession } from '../session.ts';
import { isLoopbackHost } from '../target.ts';
import type { RunAction } from './action.ts';

type LoginOptions = { issuer?: string; clientId?: string; scope?: string; tenant?: string | true };

export const DEFAULT_SCOPE = 'openid offline_access platform:read platform:write';

const parseIssuer = (value: string): URL => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--issuer "${value}" is not a URL; pass the issuer URL, e.g. https://login.example.com`,
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  throw new UsageError(`--issuer must use https (http only for localhost), got ${url.protocol}//${url.host}`);
};

/** The OAuth error code of an openid-client failure (`expired_token`, `access_denied`, ...), if it has one. */
const oauthErrorOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'error' in error && typeof error.error === 'string'
    ? error.error
    : undefined;

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * OAuth 2.0 device authorization grant (RFC 8628) through openid-client: a terminal has no browser redirect,
 * so the user approves the printed code on any device, and the CLI polls for the tokens.
 */
export const login = async (ctx: Context, options: LoginOptions) => {
  checkTenant(options.tenant);
  const issuerValue = options.issuer ?? ctx.env.issuer;
  const clientId = options.clientId ?? ctx.env.clientId;
  requireOptions('login', [
    [issuerValue, '--issuer <url> (or CONNECTOR_CLI_ISSUER)'],
    [clientId, '--client-id <id> (or CONNECTOR_CLI_CLIENT_ID)'],
  ]);
  const issuer = parseIssuer(issuerValue!);
  const scope = options.scope ?? DEFAULT_SCOPE;
  const path = sessionPath(ctx.env.configHome);
  if (ctx.globals.dryRun) {
    ctx.out.result(
      `dry run: would sign in at ${issuer.href} as client ${clientId} (scope ${scope}) and save the session to ${path}`,
      { dryRun: true, issuer: issuer.href, clientId, scope, sessionPath: path },
    );
    return;
  }

  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, clientId!, undefined, oidc.None(), {
      // Plain http is accepted only for a loopback issuer (checked above): local development and tests.
      execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
    });
  } catch (error) {
    throw new CliError(
      'LOGIN_FAILED',
      `could not read the OpenID configuration of ${issuer.href} (${reasonOf(error)}); check --issuer`,
      { cause: error },
    );
  }
  ctx.out.debug(`issuer ${config.serverMetadata().issuer}`);

  let device: oidc.DeviceAuthorizationResponse;
  try {
    device = await oidc.initiateDeviceAuthorization(config, { scope });
  } catch (error) {
    const code = oauthErrorOf(error);
    const hint =
      code === 'invalid_client' || code === 'unauthorized_client'
        ? `the issuer refused client ${clientId} (${code}); check --client-id and that it may use the device flow`
        : `the issuer refused to start the sign-in (${code ?? reasonOf(error)}); check --client-id and --scope`;
    throw new CliError('LOGIN_FAILED', hint, { cause: error });
  }

  const complete = device.verification_uri_complete;
  ctx.out.info(`To sign in, open ${device.verification_uri} and enter the code ${device.user_code}`);
  if (complete !== undefined) ctx.out.info(`or open ${complete}`);
  ctx.out.info(`Waiting for approval (the code expires in ${Math.round(device.expires_in / 60)} minutes)...`);

  let tokens: Awaited<ReturnType<typeof oidc.pollDeviceAuthorizationGrant>>;
  try {
    tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
  } catch (error) {
    const code = oauthErrorOf(error);
    const message =
      code === 'expired_token'
        ? 'the code expired before it was approved; run connector-cli login again'
        : code === 'access_denied'
          ? 'the sign-in was denied; run connector-cli login again and approve it'
          : `the issuer refused the sign-in (${code ?? reasonOf(error)}); run connector-cli login again`;
    throw new CliError('LOGIN_FAILED', message, { cause: error });
  }

  ctx.out.addSecret(tokens.access_token);
  if (tokens.refresh_token !== undefined) ctx.out.addSecret(tokens.refresh_token);
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = tokens.expiresIn();
  const expiresAt = expiresIn === undefined ? undefined : now + expiresIn;
  await writeSession(path, {
    issuer: issuer.href,
    clientId: clientId!,
    accessToken: tokens.access_token,
    ...(tokens.refresh_token === undefined ? {} : { refreshToken: tokens.refresh_token }),
    ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    savedAt: now,
  });
  const until = expiresAt === undefined ? '' : ` until ${new Date(expiresAt * 1000).toISOString()}`;
  ctx.out.result(`Logged in at ${issuer.href}; the session is saved in ${path}${until}.`, {
    issuer: issuer.href,
    sessionPath: path,
    expiresAt: expiresAt === undefined ? null : new Date(expiresAt * 1000).toISOString(),
  });
};

export const registerLogin = (program: Command, run: RunAction) =>
  addTenantOption(program.command('login'))
    .summary('sign in with the OAuth device flow and save the session')
    .description(
      'Sign in at an OpenID issuer with the OAuth 2.0 device authorization grant. The session is saved in $XDG_CONFIG_HOME/connector-cli/session.json (default ~/.config/...), readable only by you; other commands use it when neither --token nor CONNECTOR_CLI_TOKEN is given.',
    )
    .option('--issuer <url>', 'OpenID issuer URL (default: $CONNECTOR_CLI_ISSUER)')
    .option('--client-id <id>', 'OAuth client id registered for the CLI (default: $CONNECTOR_CLI_CLIENT_ID)')
    .option('--scope <scope>', 'scopes to request', DEFAULT_SCOPE)
    .addHelpText(
      'after',
      `
Example:
  connector-cli login --issuer https://login.example.com --client-id connector-cli
  (open the printed address on any device, enter the code, approve; the CLI waits)`,
    )
    .action((options: LoginOptions) => run((ctx) => login(ctx, options)));
