import { randomUUID } from 'node:crypto';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import {
  type AuthType,
  authData,
  type CliResult,
  cliRunner,
  SECRETS,
  TYPES,
  writeAuthDataFiles,
  writeConnectorProject,
} from './support.ts';

const ENVIRONMENT = 'acme-prod';
const connectorsPath = `/grafx/api/v1/environment/${ENVIRONMENT}/connectors`;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

type AuthSummary = { usage: string; type: string; name: string; updatedAt: string };

// On the embedded database only (the default a developer runs): connector-cli talks HTTP, and what the server stores
// for it is tested on both backends by the environment API's tests.
describe.each((await testBackends()).slice(0, 1))(
  'connector-cli against the composed server on $name',
  (backend) => {
    let tp: TestPlatform;
    let target: Target;
    let token: string;
    let baseUrl: string;
    const outputs: CliResult[] = [];
    const responses: string[] = [];
    const cli = cliRunner(outputs);
    const files = writeAuthDataFiles();

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      target = await startTarget();
      // The environment admin of acme-prod: the least a connector developer needs.
      token = await tp.token(USERS.envAdmin, ['platform:read', 'platform:write']);
      baseUrl = `http://${ENVIRONMENT}.localhost:${new URL(tp.url).port}/grafx`;
    });
    afterAll(async () => {
      await tp?.close();
      await target?.close();
    });

    /** The common options of every command against the started server. */
    const at = () => ['-e', ENVIRONMENT, '-b', baseUrl, '--token', token];

    const rest = async <T = unknown>(method: string, path: string, body?: unknown) => {
      const response = await tp.call(path, {
        method,
        token,
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      const text = await response.text();
      responses.push(text);
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T, text };
    };

    const authOf = async (id: string) => {
      const reply = await rest<AuthSummary[]>('GET', `${connectorsPath}/${id}/auth`);
      expect(reply.status, reply.text).toBe(200);
      return Object.fromEntries(reply.body.map((row) => [row.usage, row.type]));
    };

    const setAuth = (id: string, project: string, usage: string, type: AuthType) =>
      cli([
        'set-auth',
        project,
        '--connectorId',
        id,
        ...at(),
        '-au',
        usage,
        '-at',
        type,
        '--auth-data-file',
        files[type],
      ]);

    const expectOk = (result: CliResult) => {
      expect(result.stderr, result.args.join(' ')).toBe('');
      expect(result.code).toBe(0);
    };

    it('publish, set-auth every type for every usage it allows, list, replace, delete-auth, delete', async () => {
      const project = writeConnectorProject();
      const published = await cli(['publish', project, ...at()]);
      expectOk(published);
      expect(published.stdout).toMatch(
        /^Published connector E2E Weather 2\.3\.0 to acme-prod: id [0-9a-f-]{36}\n$/,
      );
      const id = UUID.exec(published.stdout)?.[0] ?? '';

      const connector = await rest<Record<string, unknown>>('GET', `${connectorsPath}/${id}`);
      expect(connector.status).toBe(200);
      expect(connector.body).toMatchObject({
        id,
        name: 'E2E Weather',
        version: '2.3.0',
        description: 'Weather data, published by the end-to-end tests',
        type: 'data',
        enabled: true,
        allowedDomains: ['127.0.0.1', '*.weather.example'],
        proxyOptions: { forwardedHeaders: false },
        supportedAuthentication: {
          browser: [...TYPES],
          server: TYPES.filter((type) => type !== 'oAuth2AuthorizationCode'),
        },
      });
      expect(await authOf(id)).toEqual({});

      // Each round sets both usages at once (two processes); every round after the first replaces both types.
      const rounds: [AuthType, AuthType | undefined][] = [
        ['staticKey', 'staticKey'],
        ['oAuth2ClientCredentials', 'oAuth2ResourceOwnerPassword'],
        ['oAuth2ResourceOwnerPassword', 'oAuth2JwtBearer'],
        ['oAuth2JwtBearer', 'oAuth2ClientCredentials'],
        ['oAuth2AuthorizationCode', undefined],
      ];
      let expected: Record<string, string> = {};
      for (const [browser, server] of rounds) {
        const results = await Promise.all([
          setAuth(id, project, 'browser', browser),
          ...(server ? [setAuth(id, project, 'server', server)] : []),
        ]);
        for (const result of results) {
          expectOk(result);
          expect(result.stdout).toMatch(
            new RegExp(
              `^Set (browser|server) authorization of connector ${id} in acme-prod to \\w+ as ".+"\\.\\n$`,
            ),
          );
        }
        expected = { ...expected, browser, ...(server ? { server } : {}) };
        expect(await authOf(id)).toEqual(expected);

        if (browser === 'staticKey') {
          // What the CLI sent is what the proxy injects.
          const reply = await tp.call(`${connectorsPath}/${id}/proxy`, {
            token,
            headers: { 'x-grafx-proxy-external-url': `${target.url}/from-cli` },
          });
          expect(reply.status).toBe(200);
          responses.push(await reply.text());
          expect(target.last('/from-cli')?.headers['x-api-key']).toBe(SECRETS.staticValue);
        }
      }
      expect(expected).toEqual({ browser: 'oAuth2AuthorizationCode', server: 'oAuth2ClientCredentials' });

      const [connectors, auth] = await Promise.all([
        cli(['list', ...at()]),
        cli(['list', '--connectorId', id, ...at()]),
      ]);
      for (const result of [connectors, auth]) expectOk(result);
      const row = connectors.stdout.split('\n').find((line) => line.startsWith(id));
      expect(row).toMatch(/E2E Weather\s+2\.3\.0\s+data\s+true\s+staticKey,/);
      expect(auth.stdout.split('\n')[0]).toMatch(/^USAGE\s+TYPE\s+NAME\s+UPDATED$/);
      expect(auth.stdout).toMatch(/^browser\s+oAuth2AuthorizationCode\s/m);
      expect(auth.stdout).toMatch(/^server\s+oAuth2ClientCredentials\s/m);
      expect(auth.stdout.trim().split('\n')).toHaveLength(3);

      const removed = await cli(['delete-auth', '--connectorId', id, ...at(), '-au', 'server']);
      expectOk(removed);
      expect(removed.stdout).toBe(`Removed the server authorization of connector ${id} in acme-prod.\n`);
      expect(await authOf(id)).toEqual({ browser: 'oAuth2AuthorizationCode' });

      const deleted = await cli(['delete', '--connectorId', id, ...at()]);
      expectOk(deleted);
      expect(deleted.stdout).toBe(
        `Deleted connector ${id} from acme-prod, with its authorization configurations.\n`,
      );
      expect((await rest('GET', `${connectorsPath}/${id}`)).status).toBe(404);
      expect((await rest('GET', `${connectorsPath}/${id}/auth`)).status).toBe(404);
    });

    it('a server-side error exits 1 with the ProblemDetails detail on one stderr line', async () => {
      const publishedOverRest = await rest<{ id: string }>('POST', connectorsPath, {
        name: 'Static only',
        version: '1.0.0',
        type: 'data',
        script: 'export default class C {}',
        allowedDomains: ['api.acme.example'],
        supportedAuth: ['staticKey'],
      });
      expect(publishedOverRest.status).toBe(201);
      const id = publishedOverRest.body.id;
      const missing = randomUUID();
      // The same requests over REST, for the details the CLI must show.
      const unsupported = await rest<{ detail: string }>(
        'PUT',
        `${connectorsPath}/${id}/auth/oauth-jwt-bearer`,
        { usage: 'server', ...authData.oAuth2JwtBearer },
      );
      expect(unsupported.status).toBe(400);
      const notFound = await rest<{ detail: string }>('DELETE', `${connectorsPath}/${missing}`);
      expect(notFound.status).toBe(404);

      // No project in the working directory: only the server knows the connector supports staticKey alone.
      const [jwt, gone] = await Promise.all([
        cli([
          'set-auth',
          '--connectorId',
          id,
          ...at(),
          '-au',
          'server',
          '-at',
          'oAuth2JwtBearer',
          '--auth-data-file',
          files.oAuth2JwtBearer,
        ]),
        cli(['delete', '--connectorId', missing, ...at()]),
      ]);
      expect(jwt.code).toBe(1);
      expect(jwt.stdout).toBe('');
      expect(jwt.stderr).toBe(`error: ${unsupported.body.detail}\n`);
      expect(jwt.stderr).toMatch(/oAuth2JwtBearer/);
      expect(gone.code).toBe(1);
      expect(gone.stdout).toBe('');
      // The server's words, then how to fix a 404.
      expect(gone.stderr).toBe(
        `error: ${notFound.body.detail.replace(/\.$/, '')}; check -e and --connectorId (connector-cli list -e <environment> -b <baseUrl> shows the connectors)\n`,
      );
      expect(await authOf(id)).toEqual({});
      // A -b whose path is not where the environment API begins: the server has no such endpoint, and the fix names -b.
      const wrongPrefix = await cli([
        'list',
        '-e',
        ENVIRONMENT,
        '-b',
        baseUrl.replace(/\/grafx$/, '/wrongprefix'),
        '--token',
        token,
      ]);
      expect(wrongPrefix.code).toBe(1);
      expect(wrongPrefix.stderr).toMatch(
        /^error: No endpoint at GET \/wrongprefix\/.*; check the path of -b: it is where the environment API begins, such as https:\/\/<host>\/grafx\n$/,
      );
    });

    it('no secret in any output, with --verbose, --dry-run and --json too', async () => {
      const project = writeConnectorProject();
      const published = await rest<{ id: string }>('POST', connectorsPath, {
        name: 'Secrets',
        version: '1.0.0',
        type: 'data',
        script: 'export default class C {}',
        allowedDomains: ['api.acme.example'],
        supportedAuth: [...TYPES],
      });
      expect(published.status).toBe(201);
      const id = published.body.id;
      const [verbose, dryRun, dryRunJson, verboseError] = await Promise.all([
        cli([
          'set-auth',
          project,
          '--connectorId',
          id,
          ...at(),
          '--verbose',
          '--json',
          '-au',
          'server',
          '-at',
          'oAuth2ResourceOwnerPassword',
          '--auth-data-file',
          files.oAuth2ResourceOwnerPassword,
        ]),
        cli([
          'set-auth',
          project,
          '--connectorId',
          id,
          ...at(),
          '--dry-run',
          '-au',
          'browser',
          '-at',
          'oAuth2JwtBearer',
          '--auth-data-file',
          files.oAuth2JwtBearer,
        ]),
        cli([
          'set-auth',
          project,
          '--connectorId',
          id,
          ...at(),
          '--dry-run',
          '--json',
          '-au',
          'browser',
          '-at',
          'staticKey',
          '--auth-data-file',
          files.staticKey,
        ]),
        // A server error with --verbose shows the whole ProblemDetails.
        cli([
          'set-auth',
          '--connectorId',
          randomUUID(),
          ...at(),
          '--verbose',
          '-au',
          'server',
          '-at',
          'oAuth2ResourceOwnerPassword',
          '--auth-data-file',
          files.oAuth2ResourceOwnerPassword,
        ]),
      ]);
      expectOk(dryRun);
      expect(dryRun.stdout).toContain('dry run: nothing was sent');
      expect(dryRun.stdout).toContain('Authorization: Bearer ***');
      expectOk(dryRunJson);
      expect(JSON.parse(dryRunJson.stdout)).toMatchObject({ dryRun: true, request: { method: 'PUT' } });
      expect(verbose.code).toBe(0);
      expect(verbose.stderr).toMatch(/HTTP 200/);
      expect(verbose.stderr).toMatch(/"password":"\*+"/);
      expect(JSON.parse(verbose.stdout)).toMatchObject({
        usage: 'server',
        type: 'oAuth2ResourceOwnerPassword',
      });
      expect(verboseError.code).toBe(1);
      expect(verboseError.stderr).toMatch(
        /^error: Connector .+ was not found in this environment; check -e/m,
      );
      expect(verboseError.stderr).toContain('HTTP 404');
      expect(verboseError.stderr).toContain('"traceId"');
      // The dry runs changed nothing; the real runs did.
      expect(await authOf(id)).toEqual({ server: 'oAuth2ResourceOwnerPassword' });

      expect(outputs.length).toBeGreaterThan(12);
      const printed = outputs.map((result) => `${result.stdout}\n${result.stderr}`).join('\n');
      const secrets = [
        SECRETS.staticValue,
        SECRETS.clientSecret,
        SECRETS.password,
        'PRIVATE KEY',
        ...SECRETS.privateKey.split('\n').filter((line) => line.length > 40),
        token,
      ];
      for (const secret of secrets) {
        expect(printed.includes(secret), secret).toBe(false);
        expect(responses.join('\n').includes(secret), secret).toBe(false);
        expect(tp.logs.join('\n').includes(secret), secret).toBe(false);
      }
    });
  },
);
