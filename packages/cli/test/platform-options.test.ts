import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authData, connectorPackage, SECRETS } from './helpers/fixtures.ts';
import {
  platformLikeResponder,
  type RecordingServer,
  startRecordingServer,
} from './helpers/recording-server.ts';
import { runCli, tempDir } from './helpers/run-cli.ts';

const ID = 'c0ffee00-0000-4000-8000-000000000001';
const API = '/grafx/api/v1/environment/acme-prod';

let server: RecordingServer;
let base: string;
beforeAll(async () => {
  server = await startRecordingServer(platformLikeResponder);
  base = `http://acme-prod.localhost:${server.port}/grafx`;
});
afterAll(() => server.close());

const target = () => ['--environment', 'acme-prod', '--baseUrl', base, '--token', SECRETS.token];

/** A project with package.json and, when given, connector.ts (no built script). */
const project = (pkg: object, source?: string): string => {
  const dir = tempDir('connector-platform-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  if (source !== undefined) writeFileSync(join(dir, 'connector.ts'), source);
  return dir;
};
const { main: _main, ...noMain } = connectorPackage();
const withConfig = (config: object) => ({ ...noMain, config: { ...noMain.config, ...config } });
const SOURCE = 'export default class Weather { getCapabilities(): object { return {}; } }\n';

type Case = { name: string; args: () => string[]; stderr: RegExp };

/** Every case: exit 2, exactly one stderr line, nothing on stdout, and no request reached the server. */
const refused = async (cases: Case[]) => {
  const before = server.requests.length;
  const results = await Promise.all(cases.map((c) => runCli(c.args())));
  results.forEach((result, i) => {
    const { name, stderr } = cases[i]!;
    expect(result.code, name).toBe(2);
    expect(result.stdout, name).toBe('');
    expect(result.stderr, name).toMatch(stderr);
    expect(result.stderr.trimEnd().split('\n'), name).toHaveLength(1);
  });
  expect(server.requests.length).toBe(before);
};

describe('publish with the platform CLI options', () => {
  test('compiles connector.ts, takes -n, -ro and --proxyOption.*, reads config.connectorName', async () => {
    const dir = project(
      withConfig({ connectorName: 'Weather (platform)', options: { units: null, lang: 'en' } }),
      SOURCE,
    );
    const named = await runCli([
      'publish',
      dir,
      ...target(),
      '-ro',
      'units=metric',
      '-ro',
      'lang=de=CH',
      '--proxyOption.allowedDomains',
      'api.weather.example',
      '--proxyOption.allowedDomains',
      'cdn.weather.example',
      '--proxyOption.forwardedHeaders',
    ]);
    expect(named.stderr).toBe('');
    expect(named.code).toBe(0);
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe(`${API}/connectors`);
    const body = sent.json as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Weather (platform)',
      options: { units: 'metric', lang: 'de=CH' },
      allowedDomains: ['api.weather.example', 'cdn.weather.example'],
      proxyOptions: { forwardedHeaders: true },
    });
    expect(body.script).toContain('as default');
    expect(body.script).not.toContain(': object');

    const renamed = await runCli([
      'publish',
      join(dir, 'connector.ts'),
      ...target(),
      '-n',
      'Renamed',
      '-ro',
      'units=si',
    ]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect((server.requests.at(-1)!.json as Record<string, unknown>).name).toBe('Renamed');
  });

  test('a build older than connector.ts is published with a warning that says to build first', async () => {
    const dir = project(connectorPackage(), SOURCE);
    const main = join(dir, connectorPackage().main);
    mkdirSync(join(main, '..'), { recursive: true });
    writeFileSync(main, 'export default class Old {}\n');
    // connector.ts changed after the build.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'connector.ts'), later, later);
    const stale = await runCli(['publish', dir, ...target()]);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stderr).toBe(
      `warning: ${connectorPackage().main} is older than connector.ts, which changed since: publishing that older build; run connector-cli build first to publish the change\n`,
    );
    expect((server.requests.at(-1)!.json as Record<string, unknown>).script).toContain('class Old');
    // Built after the change: nothing to say.
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'connector.ts'), earlier, earlier);
    expect((await runCli(['publish', dir, ...target()])).stderr).toBe('');
  });

  test('refuses bad options and sources before any request', async () => {
    const declared = project(withConfig({ options: { units: null } }), SOURCE);
    const broken = project(withConfig({ options: {} }), 'export default class {\n  oops(: void {}\n}\n');
    const nothing = project(withConfig({}));
    await refused([
      {
        name: 'unknown -ro key',
        args: () => ['publish', declared, ...target(), '-ro', 'units=a', '-ro', 'colour=red'],
        stderr: /^error: -ro colour is not in config\.options of .*package\.json; declare it there/,
      },
      {
        name: '-ro without =',
        args: () => ['publish', declared, ...target(), '-ro', 'units'],
        stderr: /^error: -ro units is not Key=Value; write -ro Key=Value$/m,
      },
      {
        name: 'required runtime option missing',
        args: () => ['publish', declared, ...target()],
        stderr: /^error: config\.options of .* requires units; give -ro units=<value>$/m,
      },
      {
        name: 'no allowedDomains: package.json or the option that gives them',
        args: () => {
          const { allowedDomains: _none, ...rest } = noMain.config as Record<string, unknown>;
          return ['publish', project({ ...noMain, config: rest }, SOURCE), ...target()];
        },
        stderr:
          /^error: config\.allowedDomains in .*package\.json: is required; fix package\.json or give --proxyOption\.allowedDomains /,
      },
      {
        name: 'required runtime option given empty',
        args: () => ['publish', declared, ...target(), '-ro', 'units='],
        stderr: /^error: config\.options of .* requires units; give -ro units=<value>$/m,
      },
      {
        name: 'bad --proxyOption.allowedDomains',
        args: () => [
          'publish',
          declared,
          ...target(),
          '-ro',
          'units=a',
          '--proxyOption.allowedDomains',
          'https://x.example',
        ],
        stderr:
          /^error: --proxyOption\.allowedDomains\[0\]: a host name such as example\.com.*fix the command line/m,
      },
      {
        name: 'connector.ts that does not compile',
        args: () => ['publish', broken, ...target()],
        stderr: /^error: .*connector\.ts:2:\d+: .+; fix the connector source and publish again$/m,
      },
      {
        name: 'neither a built script nor connector.ts',
        args: () => ['publish', nothing, ...target()],
        stderr: /no built script dist\/index\.js \(no "main" in package\.json\) and no connector\.ts/,
      },
      {
        name: 'empty -n',
        args: () => ['publish', declared, ...target(), '-n', ' '],
        stderr: /^error: -n is empty/,
      },
      {
        name: 'unknown tenant',
        args: () => ['publish', declared, ...target(), '-t', 'staging'],
        stderr: /^error: -t staging is not a tenant; use -t prod or -t dev/,
      },
    ]);
  });
});

describe('update', () => {
  test('PATCHes only the fields given; booleans as the platform CLI spells them', async () => {
    const result = await runCli([
      'update',
      '--connectorId',
      ID,
      ...target(),
      '--enabled',
      'False',
      '-n',
      'Weather 2',
      '-t',
      'prod',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe('PATCH');
    expect(sent.url).toBe(`${API}/connectors/${ID}`);
    expect(sent.json).toEqual({ enabled: false, name: 'Weather 2' });
  });

  test('a bare -t, as the platform CLI takes it (its default tenant), also before another option', async () => {
    for (const args of [
      ['update', '--connectorId', ID, ...target(), '--enabled', 'true', '-t'],
      ['update', '-t', '--connectorId', ID, ...target(), '--enabled', 'true'],
    ]) {
      const result = await runCli(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(server.requests.at(-1)!.json).toEqual({ enabled: true });
    }
  });

  test('refuses what it cannot send, before any request', async () => {
    await refused([
      {
        name: 'nothing to update',
        args: () => ['update', '--connectorId', ID, ...target()],
        stderr: /^error: nothing to update; give at least one of --enabled, --default or -n$/m,
      },
      {
        name: 'not a boolean',
        args: () => ['update', '--connectorId', ID, ...target(), '--default', 'yes'],
        stderr: /^error: --default must be true or false, got "yes"/,
      },
      {
        name: 'no connector id',
        args: () => ['update', ...target(), '--enabled', 'true'],
        stderr: /^error: missing required option --connectorId <id>/,
      },
      {
        name: 'a named project that does not exist',
        args: () => ['update', '/nonexistent/project', '--connectorId', ID, ...target(), '--enabled', 'true'],
        stderr: /^error: the project directory \/nonexistent\/project does not exist/,
      },
    ]);
  });
});

describe('new', () => {
  test('scaffolds a media or data project; refuses bad names, types and an existing project', async () => {
    const work = tempDir('connector-new-');
    const made = await runCli(['new', '--name', 'Acme DAM', '--type', 'media'], { cwd: work });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^Created media connector project "Acme DAM" in .*acme-dam/);
    for (const file of ['package.json', 'tsconfig.json', 'connector.ts', '.gitignore'])
      expect(existsSync(join(work, 'acme-dam', file))).toBe(true);
    const dry = await runCli(['--dry-run', 'new', 'x-data', '--connector-name', 'X', '-t', 'data'], {
      cwd: work,
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(existsSync(join(work, 'x-data'))).toBe(false);
    // The project's name alone names the connector too.
    const named = await runCli(['new', 'acme-weather', '-t', 'data'], { cwd: work });
    expect(named.code, named.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, 'acme-weather', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'acme-weather',
      config: { connectorName: 'acme-weather', type: 'data' },
    });
    // The SDK range is the one this CLI installs itself, so `npm install` finds a release in a new project.
    const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.devDependencies['@chili-publish/studio-connectors']).toBe(
      own.devDependencies['@chili-publish/studio-connectors'],
    );

    mkdirSync(join(work, 'taken'));
    writeFileSync(join(work, 'taken', 'package.json'), '{}');
    const cases: Case[] = [
      {
        name: 'no name',
        args: () => ['new', '-t', 'data'],
        stderr: /^error: missing required option --name <name>/,
      },
      {
        name: 'bad type',
        args: () => ['new', '--name', 'X', '--type', 'fonts'],
        stderr: /^error: --type must be media or data, got "fonts"/,
      },
      {
        name: 'bad package name',
        args: () => ['new', 'Not Valid', '--name', 'X'],
        stderr: /^error: "Not Valid" is not a valid npm package name/,
      },
      {
        name: 'existing project',
        args: () => ['new', '--name', 'Taken', '-o', join(work, 'taken')],
        stderr: /already holds a package\.json; choose another directory with -o$/m,
      },
    ];
    await refused(cases);
  });
});

describe('set-auth pre-filled from config.authenticationConfig', () => {
  const setAuth = (dir: string, type: string, file: string, extra: string[] = []) => [
    'set-auth',
    dir,
    '--connectorId',
    ID,
    ...target(),
    '--usage',
    'server',
    '--type',
    type,
    '--auth-data-file',
    file,
    ...extra,
  ];

  test('merges the file over the defaults (the file wins) and never prints a secret', async () => {
    const { privateKey } = authData.oAuth2JwtBearer.signatureConfig as { privateKey: string };
    const dir = project(
      withConfig({
        authenticationConfig: {
          oAuth2ResourceOwnerPassword: {
            bodyFormat: 'applicationJson',
            authorizationServerMetadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] },
          },
          oAuth2JwtBearer: {
            tokenEndpoint: 'https://login.example.com/oauth/token',
            jwtTokenParamName: 'assertion',
            jwtPayload: [
              { key: 'aud', value: 'https://login.example.com' },
              { key: 'tenant', value: 42 },
              { key: 'sub', required: true, ui: { label: 'Subject' } },
            ],
            requestBodyParams: [{ key: 'client_id', value: 'default-client' }],
          },
        },
      }),
    );
    const files = tempDir('connector-prefill-');
    const ropc = join(files, 'ropc.json');
    const { bodyFormat: _format, ...ropcData } = authData.oAuth2ResourceOwnerPassword;
    // The platform's data files may carry the configuration's name.
    writeFileSync(ropc, JSON.stringify({ ...ropcData, name: 'Integration user' }));
    const jwt = join(files, 'jwt.json');
    writeFileSync(
      jwt,
      JSON.stringify({
        name: 'named in the file',
        signatureConfig: { algorithm: 'RS256', privateKey },
        jwtPayload: { sub: 'integration', tenant: 7 },
      }),
    );

    const password = await runCli(setAuth(dir, 'oAuth2ResourceOwnerPassword', ropc, ['--verbose']));
    expect(password.code, password.stderr).toBe(0);
    expect(server.requests.at(-1)!.json).toEqual({
      usage: 'server',
      name: 'Integration user',
      ...ropcData,
      bodyFormat: 'applicationJson',
      authorizationServerMetadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] },
    });
    const bearer = await runCli(
      setAuth(dir, 'oAuth2JwtBearer', jwt, ['--json', '--verbose', '--name', 'Bearer']),
    );
    expect(bearer.code, bearer.stderr).toBe(0);
    expect(server.requests.at(-1)!.json).toEqual({
      usage: 'server',
      name: 'Bearer',
      tokenEndpoint: 'https://login.example.com/oauth/token',
      jwtTokenParamName: 'assertion',
      signatureConfig: { algorithm: 'RS256', privateKey },
      jwtPayload: { aud: 'https://login.example.com', tenant: 7, sub: 'integration' },
      requestBodyParams: { client_id: 'default-client' },
    });
    const dry = await runCli(['--dry-run', ...setAuth(dir, 'oAuth2JwtBearer', jwt)]);
    expect(dry.code, dry.stderr).toBe(0);
    // Claims and body parameters are sealed by the server: named, never shown.
    expect(dry.stdout).toContain('"tenant": "********"');
    expect(dry.stdout).toContain('"client_id": "********"');
    expect(dry.stdout).not.toContain('default-client');
    // The `aud` claim begins the token endpoint, which is no secret: the endpoint is printed whole, not garbled.
    expect(dry.stdout).toContain('"tokenEndpoint": "https://login.example.com/oauth/token"');

    const printed = [password, bearer, dry].map((r) => r.stdout + r.stderr).join('\n');
    for (const secret of [SECRETS.clientSecret, SECRETS.password, SECRETS.privateKeyBody, SECRETS.token])
      expect(printed).not.toContain(secret);
  });

  test('names what the merged data lacks, before any request', async () => {
    const dir = project(
      withConfig({
        authenticationConfig: {
          oAuth2JwtBearer: { jwtTokenParamName: 'assertion', jwtPayload: [{ key: 'sub', required: true }] },
          oAuth2ResourceOwnerPassword: { bodyFormat: 'xml' },
        },
      }),
    );
    const files = tempDir('connector-prefill-bad-');
    const jwt = join(files, 'jwt.json');
    writeFileSync(jwt, JSON.stringify({ ...authData.oAuth2JwtBearer, jwtPayload: { iss: 'x' } }));
    const ropc = join(files, 'ropc.json');
    const { bodyFormat: _format, ...ropcData } = authData.oAuth2ResourceOwnerPassword;
    writeFileSync(ropc, JSON.stringify(ropcData));
    await refused([
      {
        name: 'a required JWT claim the file does not give',
        args: () => setAuth(dir, 'oAuth2JwtBearer', jwt),
        stderr:
          /must give jwtPayload\.sub, which config\.authenticationConfig\.oAuth2JwtBearer of .*package\.json requires; add it$/m,
      },
      {
        name: 'a bad default',
        args: () => setAuth(dir, 'oAuth2ResourceOwnerPassword', ropc),
        stderr:
          /\(merged over config\.authenticationConfig\.oAuth2ResourceOwnerPassword of .*package\.json\): bodyFormat:/,
      },
    ]);
  });
});

describe('what a user types wrong, told as such', () => {
  test('publish takes connector.ts by a path relative to where it runs', async () => {
    const dir = project(withConfig({ connectorName: 'Relative' }), SOURCE);
    const result = await runCli(['publish', 'connector.ts', ...target()], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests.at(-1)?.method).toBe('POST');
  });

  test('-b with credentials, a query or a fragment is refused without echoing them', async () => {
    const port = base.split(':')[2]!.split('/')[0];
    for (const spelled of [
      `http://user:hunter2secret@acme-prod.localhost:${port}/grafx`,
      `http://acme-prod.localhost:${port}/grafx#tok=hunter2secret`,
    ]) {
      const result = await runCli(['list', '-e', 'acme-prod', '-b', spelled, '--token', SECRETS.token]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/remove the (credentials|fragment) from http:\/\/acme-prod\.localhost/);
      expect(result.stderr).not.toContain('hunter2secret');
    }
  });

  test('a token holding a line break is a usage error naming where it came from', async () => {
    const before = server.requests.length;
    const option = await runCli(['list', ...target().slice(0, 4), '--token', 'abc\ndef']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^error: --token holds a line break/);
    const env = await runCli(['list', ...target().slice(0, 4)], {
      env: { CONNECTOR_CLI_TOKEN: 'abc\u0001def' },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/^error: CONNECTOR_CLI_TOKEN holds a line break/);
    expect(server.requests.length).toBe(before);
  });

  test('an auth data field of the wrong type says so, not that it is missing', async () => {
    const dir = project(withConfig({}), SOURCE);
    const file = join(dir, 'static.yaml');
    // YAML reads an unquoted 12345 as a number.
    writeFileSync(file, 'key: X-Api-Key\nvalue: 12345\n');
    const result = await runCli([
      'set-auth',
      '--connectorId',
      ID,
      ...target(),
      '-au',
      'server',
      '-at',
      'staticKey',
      '--auth-data-file',
      file,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /value must be a string, but it is a number; write it as a string \(quote it\)/,
    );
  });
});
