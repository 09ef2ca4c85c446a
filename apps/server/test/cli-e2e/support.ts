import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The connector-cli bin exactly as a user runs it. */
export const BIN = fileURLToPath(new URL('../../../../packages/cli/bin/connector-cli.js', import.meta.url));

export type CliResult = { code: number | null; stdout: string; stderr: string; args: string[] };

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/**
 * Runs the bin as a child process with a fresh empty HOME (no saved session can leak in) and only PATH from the
 * test's environment. Every result is also pushed to `outputs`, so a test can search all of them for secrets.
 */
export const cliRunner = (outputs: CliResult[]) => {
  return (args: string[], options: { cwd?: string } = {}): Promise<CliResult> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: options.cwd ?? tempDir('cli-e2e-cwd-'),
        env: { PATH: process.env.PATH ?? '', HOME: tempDir('cli-e2e-home-') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', (code) => {
        const result = { code, stdout, stderr, args };
        outputs.push(result);
        resolve(result);
      });
    });
};

/** Secret values of the auth data files below: distinctive, so any output can be searched for them. */
export const SECRETS = {
  staticValue: 'cli-e2e-static-value-91d0c3',
  clientSecret: 'cli-e2e-client-secret-47ab2e',
  password: 'cli-e2e-password-6f13d8',
  privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
};

export const TYPES = [
  'staticKey',
  'oAuth2ClientCredentials',
  'oAuth2AuthorizationCode',
  'oAuth2ResourceOwnerPassword',
  'oAuth2JwtBearer',
] as const;
export type AuthType = (typeof TYPES)[number];

const TOKEN_ENDPOINT = 'https://login.acme.example/oauth/token';

/** One valid auth data file per type (docs/connector-auth.md, docs/environment-api.md). */
export const authData: Record<AuthType, Record<string, unknown>> = {
  staticKey: { key: 'X-Api-Key', value: SECRETS.staticValue },
  oAuth2ClientCredentials: {
    clientId: 'cli-e2e-client',
    clientSecret: SECRETS.clientSecret,
    scope: 'read',
    tokenEndpoint: TOKEN_ENDPOINT,
  },
  oAuth2AuthorizationCode: {
    clientId: 'cli-e2e-client',
    clientSecret: SECRETS.clientSecret,
    scope: 'read offline_access',
    authorizationServerMetadata: {
      authorization_endpoint: 'https://login.acme.example/authorize',
      token_endpoint: TOKEN_ENDPOINT,
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    },
    specCustomization: { codeParameterName: 'code', requestContentType: 'formUrlEncoded' },
  },
  oAuth2ResourceOwnerPassword: {
    clientId: 'cli-e2e-client',
    clientSecret: SECRETS.clientSecret,
    username: 'integration',
    password: SECRETS.password,
    bodyFormat: 'applicationJson',
    tokenEndpoint: TOKEN_ENDPOINT,
  },
  oAuth2JwtBearer: {
    tokenEndpoint: TOKEN_ENDPOINT,
    signatureConfig: { algorithm: 'RS256', privateKey: SECRETS.privateKey },
    jwtPayload: { iss: 'cli-e2e', sub: 'integration', aud: TOKEN_ENDPOINT },
    jwtTokenParamName: 'assertion',
    requestBodyParams: { scope: 'read' },
  },
};

/** Writes one data file per type into a fresh directory; returns the path of each. */
export const writeAuthDataFiles = (): Record<AuthType, string> => {
  const dir = tempDir('cli-e2e-auth-');
  return Object.fromEntries(
    TYPES.map((type) => {
      const file = join(dir, `${type}.json`);
      writeFileSync(file, JSON.stringify(authData[type], null, 2));
      return [type, file];
    }),
  ) as Record<AuthType, string>;
};

/** A connector project as packages/cli/README.md lays it out: package.json and the built script. */
export const writeConnectorProject = (supportedAuth: readonly string[] = TYPES): string => {
  const dir = tempDir('cli-e2e-project-');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: '@acme/e2e-weather-connector',
        version: '2.3.0',
        description: 'Weather data, published by the end-to-end tests',
        main: 'dist/index.js',
        config: {
          name: 'E2E Weather',
          type: 'data',
          allowedDomains: ['127.0.0.1', '*.weather.example'],
          supportedAuth,
          options: { units: 'metric' },
          proxyOptions: { forwardedHeaders: false },
        },
      },
      null,
      2,
    ),
  );
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.js'), 'export default class WeatherConnector {}\n');
  return dir;
};
