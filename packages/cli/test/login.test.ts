import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RecordingServer, startRecordingServer } from './helpers/recording-server.ts';
import { collect, runCli, startCli, tempDir } from './helpers/run-cli.ts';

const CLIENT_ID = 'connector-cli';
const SCOPES = ['openid', 'offline_access', 'platform:read', 'platform:write'];

let issuerServer: Server;
let provider: Provider;
let issuer: string;
let recorder: RecordingServer;

beforeAll(async () => {
  issuerServer = createServer();
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  // A real OpenID provider with the device flow (RFC 8628), as an identity provider would run it.
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        token_endpoint_auth_method: 'none',
        grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
        response_types: [],
        redirect_uris: [],
      },
    ],
    scopes: SCOPES,
    features: { deviceFlow: { enabled: true }, devInteractions: { enabled: false } },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ttl: { AccessToken: 3600, DeviceCode: 600, Grant: 3600, IdToken: 3600, RefreshToken: 86400 },
    cookies: { keys: ['test-cookie-key'] },
  });
  issuerServer.on('request', provider.callback());
  recorder = await startRecordingServer();
});

afterAll(async () => {
  issuerServer.closeAllConnections();
  await new Promise<void>((resolve) => issuerServer.close(() => resolve()));
  await recorder.close();
});

/** What the user does in the browser: sign in as alice and approve the code the CLI printed. */
const approve = async (userCode: string): Promise<void> => {
  const normalized = userCode.replace(/[^A-Za-z]/g, '').toUpperCase();
  const code = await provider.DeviceCode.findByUserCode(normalized, { ignoreExpiration: true });
  if (code === undefined) throw new Error(`no device code for ${userCode}`);
  const grant = new provider.Grant({ accountId: 'alice', clientId: CLIENT_ID });
  grant.addOIDCScope(SCOPES.join(' '));
  const grantId = await grant.save();
  Object.assign(code, {
    accountId: 'alice',
    grantId,
    scope: SCOPES.join(' '),
    authTime: Math.floor(Date.now() / 1000),
  });
  await code.save();
};

const waitFor = (read: () => string, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      const match = pattern.exec(read());
      if (match) resolve(match);
      else if (Date.now() - started > timeoutMs)
        reject(new Error(`timed out waiting for ${pattern}: ${read()}`));
      else setTimeout(poll, 50);
    };
    poll();
  });

describe('login (OAuth device authorization grant)', () => {
  test('prints the code, saves the session with mode 0600, and later commands use its token', async () => {
    const home = tempDir('connector-cli-home-');
    const child = startCli(['login', '--issuer', issuer, '--client-id', CLIENT_ID], { env: { HOME: home } });
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const done = collect(child);
    const match = await waitFor(() => stdout, /open (\S+) and enter the code (\S+)\n/);
    expect(match[1]).toBe(`${issuer}/device`);
    await approve(match[2]!);
    const result = await done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const path = join(home, '.config', 'connector-cli', 'session.json');
    expect(stdout).toContain(`the session is saved in ${path}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const session = JSON.parse(readFileSync(path, 'utf8'));
    expect(session).toMatchObject({ issuer: `${issuer}/`, clientId: CLIENT_ID });
    expect(session.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(stdout).not.toContain(session.accessToken);

    const list = await runCli(
      ['list', '-e', 'acme-prod', '-b', `http://acme-prod.localhost:${recorder.port}/grafx`],
      {
        env: { HOME: home },
      },
    );
    expect(list.code).toBe(0);
    expect(recorder.requests.at(-1)?.headers.authorization).toBe(`Bearer ${session.accessToken}`);

    // --token and CONNECTOR_CLI_TOKEN come before the session.
    await runCli(['list', '-e', 'acme-prod', '-b', `http://acme-prod.localhost:${recorder.port}/grafx`], {
      env: { HOME: home, CONNECTOR_CLI_TOKEN: 'from-environment' },
    });
    expect(recorder.requests.at(-1)?.headers.authorization).toBe('Bearer from-environment');
  });

  test('XDG_CONFIG_HOME decides where the session is read', async () => {
    const config = tempDir('connector-cli-xdg-');
    mkdirSync(join(config, 'connector-cli'));
    const session = {
      issuer: `${issuer}/`,
      clientId: CLIENT_ID,
      accessToken: 'token-from-xdg-session',
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      savedAt: Math.floor(Date.now() / 1000),
    };
    writeFileSync(join(config, 'connector-cli', 'session.json'), JSON.stringify(session), { mode: 0o600 });
    const result = await runCli(
      ['list', '-e', 'acme-prod', '-b', `http://acme-prod.localhost:${recorder.port}/grafx`],
      {
        env: { XDG_CONFIG_HOME: config },
      },
    );
    expect(result.code).toBe(0);
    expect(recorder.requests.at(-1)?.headers.authorization).toBe('Bearer token-from-xdg-session');
  });

  test('usage errors of login', async () => {
    const missing = await runCli(['login']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'error: missing required options --issuer <url> (or CONNECTOR_CLI_ISSUER), --client-id <id> (or CONNECTOR_CLI_CLIENT_ID); see connector-cli login --help\n',
    );
    // The platform CLI's `login -t prod` runs unchanged: -t is taken (and checked) as by every other command.
    const tenant = await runCli(['login', '-t', 'prod']);
    expect(tenant.code).toBe(2);
    expect(tenant.stderr).toBe(missing.stderr);
    expect((await runCli(['login', '-t', 'moon'])).stderr).toBe(
      'error: -t moon is not a tenant; use -t prod or -t dev, or leave it out\n',
    );
    const insecure = await runCli([
      'login',
      '--issuer',
      'http://login.example.com',
      '--client-id',
      CLIENT_ID,
    ]);
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toMatch(/^error: --issuer must use https \(http only for localhost\)/);
  });

  test('an unknown client is refused by the issuer (exit 1)', async () => {
    const result = await runCli(['login', '--issuer', issuer, '--client-id', 'nobody']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: the issuer refused client nobody \(invalid_client\)/);
  });
});
