import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, startTokenServer, type Target, type TokenServer } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { type CliResult, cliRunner, SECRETS, tempDir } from './support.ts';

const ENVIRONMENT = 'acme-prod';
const connectorsPath = `/grafx/api/v1/environment/${ENVIRONMENT}/connectors`;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

type Connector = {
  id: string;
  name: string;
  version: string;
  type: string;
  enabled: boolean;
  default: boolean;
  allowedDomains: string[];
  proxyOptions: { forwardedHeaders: boolean };
  supportedAuthentication: { browser: string[]; server: string[] };
};

/**
 * The lifecycle of a connector driven the way the platform's own connector-cli is driven: its option names
 * (`--environment`, `--baseUrl`, `-au/--usage`, `-at/--type`, `-n`, `-ro`, `--proxyOption.*`), a project made by
 * `new`, a `connector.ts` compiled at publish, and auth data pre-filled from package.json.
 */
// On the embedded database only (the default a developer runs): connector-cli talks HTTP, and what the server stores
// for it is tested on both backends by the environment API's tests.
describe.each((await testBackends()).slice(0, 1))(
  "connector-cli with the platform CLI's spellings on $name",
  (backend) => {
    let tp: TestPlatform;
    let target: Target;
    let tokens: TokenServer;
    let token: string;
    let baseUrl: string;
    const outputs: CliResult[] = [];
    const cli = cliRunner(outputs);

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      target = await startTarget();
      tokens = await startTokenServer();
      token = await tp.token(USERS.envAdmin, ['platform:read', 'platform:write']);
      baseUrl = `http://${ENVIRONMENT}.localhost:${new URL(tp.url).port}/grafx`;
    });
    afterAll(async () => {
      await tp?.close();
      await target?.close();
      await tokens?.close();
    });

    const rest = async <T>(path: string) => {
      const response = await tp.call(path, { token });
      const text = await response.text();
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
    };
    const expectOk = (result: CliResult) => {
      expect(result.stderr, result.args.join(' ')).toBe('');
      expect(result.code, result.args.join(' ')).toBe(0);
    };

    it('new → publish (compiling connector.ts) → update --enabled false → set-auth with prefill → delete', async () => {
      const work = tempDir('cli-e2e-new-');
      const long = ['--environment', ENVIRONMENT, '--baseUrl', baseUrl, '--token', token];
      const short = ['-e', ENVIRONMENT, '-b', baseUrl, '--token', token];

      const created = await cli(['new', 'weather-feed', '--name', 'Weather Feed', '--type', 'data'], {
        cwd: work,
      });
      expectOk(created);
      const project = join(work, 'weather-feed');
      for (const file of ['package.json', 'tsconfig.json', 'connector.ts'])
        expect(existsSync(join(project, file))).toBe(true);
      expect(existsSync(join(project, 'out'))).toBe(false);

      // The project as `new` wrote it publishes: no built main, so connector.ts is compiled.
      const dryRun = await cli(['--dry-run', 'publish', project, ...long]);
      expectOk(dryRun);
      expect(dryRun.stdout).toMatch(/"script": "<connector\.ts compiled: \d+ bytes>"/);
      const published = await cli(['publish', project, ...long]);
      expectOk(published);
      expect(published.stdout).toMatch(
        /^Published connector Weather Feed 1\.0\.0 to acme-prod: id [0-9a-f-]{36}\n$/,
      );
      const id = UUID.exec(published.stdout)?.[0] ?? '';
      const first = await rest<Connector>(`${connectorsPath}/${id}`);
      expect(first.body).toMatchObject({
        name: 'Weather Feed',
        type: 'data',
        enabled: true,
        version: '1.0.0',
      });

      // The developer declares a required runtime option and defaults for the password grant's data, then
      // republishes with the platform CLI's publish options.
      const pkgFile = join(project, 'package.json');
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
      pkg.version = '1.1.0';
      pkg.config.options = { BASE_URL: null, units: 'metric' };
      pkg.config.authenticationConfig = {
        oAuth2ResourceOwnerPassword: {
          bodyFormat: 'applicationJson',
          authorizationServerMetadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] },
        },
      };
      writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
      const missingOption = await cli(['publish', project, '--connectorId', id, ...short]);
      expect(missingOption.code).toBe(2);
      expect(missingOption.stderr).toMatch(
        /^error: config\.options of .* requires BASE_URL; give -ro BASE_URL=<value>\n$/,
      );
      const republished = await cli([
        'publish',
        project,
        '--connectorId',
        id,
        ...short,
        '-n',
        'Weather Feed EU',
        '-ro',
        'BASE_URL=http://127.0.0.1/weather?a=b',
        '-ro',
        'units=imperial',
        '--proxyOption.allowedDomains',
        '127.0.0.1',
        '--proxyOption.allowedDomains',
        '*.weather.example',
        '--proxyOption.forwardedHeaders',
      ]);
      expectOk(republished);
      const second = await rest<Connector>(`${connectorsPath}/${id}`);
      expect(second.body).toMatchObject({
        name: 'Weather Feed EU',
        version: '1.1.0',
        allowedDomains: ['127.0.0.1', '*.weather.example'],
        proxyOptions: { forwardedHeaders: true },
      });

      const disabled = await cli(['update', '--connectorId', id, ...long, '--enabled', 'false']);
      expectOk(disabled);
      expect((await rest<Connector>(`${connectorsPath}/${id}`)).body).toMatchObject({
        enabled: false,
        default: false,
      });
      const renamed = await cli([
        'update',
        project,
        '--connectorId',
        id,
        ...short,
        '--enabled',
        'TRUE',
        '--default',
        'true',
        '-n',
        'Weather',
      ]);
      expectOk(renamed);
      expect((await rest<Connector>(`${connectorsPath}/${id}`)).body).toMatchObject({
        enabled: true,
        default: true,
        name: 'Weather',
      });

      // The data file leaves bodyFormat and the client authentication method to package.json's defaults.
      const dataFile = join(work, 'password.json');
      writeFileSync(
        dataFile,
        JSON.stringify({
          clientId: 'weather-client',
          clientSecret: SECRETS.clientSecret,
          username: 'integration',
          password: SECRETS.password,
          tokenEndpoint: `${tokens.url}/token`,
        }),
      );
      const setAuth = await cli([
        'set-auth',
        project,
        '--connectorId',
        id,
        ...long,
        '--usage',
        'browser',
        '--type',
        'oAuth2ResourceOwnerPassword',
        '--auth-data-file',
        dataFile,
        '--verbose',
      ]);
      expect(setAuth.code, setAuth.stderr).toBe(0);
      expect(setAuth.stderr).toContain('"bodyFormat":"applicationJson"');
      expect(setAuth.stdout).toMatch(
        /^Set browser authorization of connector .* to oAuth2ResourceOwnerPassword/,
      );
      const auth = await rest<{ usage: string; type: string }[]>(`${connectorsPath}/${id}/auth`);
      expect(auth.body.map((a) => `${a.usage} ${a.type}`)).toEqual(['browser oAuth2ResourceOwnerPassword']);

      // What the proxy does with it: a JSON token request, the client authenticated in the body.
      const proxied = await tp.call(`${connectorsPath}/${id}/proxy`, {
        token,
        headers: { 'x-grafx-proxy-external-url': `${target.url}/weather` },
      });
      expect(proxied.status).toBe(200);
      const sent = tokens.requests.at(-1)!;
      expect(sent.contentType).toBe('application/json');
      expect(sent.authorization).toBeUndefined();
      expect(JSON.parse(sent.body)).toMatchObject({
        grant_type: 'password',
        client_id: 'weather-client',
        client_secret: SECRETS.clientSecret,
      });
      expect(target.last('/weather')?.headers.authorization).toBe(`Bearer ${tokens.issued.at(-1)}`);

      // The same with the two-letter spellings, as a dry run: the merged data, secrets masked.
      const shortSpelling = await cli([
        '--dry-run',
        'set-auth',
        project,
        '--connectorId',
        id,
        ...short,
        '-au',
        'server',
        '-at',
        'oAuth2ResourceOwnerPassword',
        '--auth-data-file',
        dataFile,
      ]);
      expectOk(shortSpelling);
      expect(shortSpelling.stdout).toContain('"client_secret_post"');

      const deleted = await cli(['delete', '--connectorId', id, ...long]);
      expectOk(deleted);
      expect((await rest(`${connectorsPath}/${id}`)).status).toBe(404);

      const printed = outputs.map((result) => `${result.stdout}\n${result.stderr}`).join('\n');
      for (const secret of [SECRETS.clientSecret, SECRETS.password, token])
        expect(printed).not.toContain(secret);
      // A dozen CLI processes one after the other: seconds each on a loaded machine.
    }, 180_000);
  },
);
