import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_TYPES, connectorPackage, SECRETS } from './helpers/fixtures.ts';
import { type RecordingServer, startRecordingServer } from './helpers/recording-server.ts';
import { runCli, startCli, tempDir } from './helpers/run-cli.ts';

const SCRIPT = 'export default class WeatherConnector {}\n';
/** A connector id the stand-in server does not know. */
const MISSING = '00000000-0000-4000-8000-000000000000';

const project = (pkg: object = connectorPackage(), script: string | null = SCRIPT): string => {
  const dir = tempDir('connector-project-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  if (script !== null) {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.js'), script);
  }
  return dir;
};

let server: RecordingServer;
let base: string;
const target = () => ['-e', 'acme-prod', '-b', base, '--token', SECRETS.token];
beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    response.setHeader('content-type', 'application/json');
    if (request.method === 'GET' && path.endsWith('/connectors')) {
      response.end(
        JSON.stringify({
          data: [
            {
              id: '0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
              name: 'Weather',
              version: '1.2.0',
              type: 'data',
              enabled: true,
              supportedAuthentication: { browser: ['staticKey'], server: ['staticKey'] },
            },
          ],
        }),
      );
    } else if (request.method === 'GET' && path.endsWith('/auth')) {
      response.end(
        JSON.stringify([
          { usage: 'server', type: 'staticKey', name: 'Key', updatedAt: '2026-01-01T00:00:00Z' },
        ]),
      );
    } else if (request.method === 'DELETE' && path.includes(MISSING)) {
      response.writeHead(404, { 'content-type': 'application/problem+json' });
      response.end(
        JSON.stringify({
          type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
          title: 'Not Found',
          status: 404,
          detail: `Connector '${MISSING}' was not found in this environment.`,
          traceId: '0af7651916cd43dd8448eb211c80319c',
        }),
      );
    } else if (request.method === 'DELETE') {
      response.writeHead(204).end();
    } else {
      response.writeHead(request.method === 'POST' ? 201 : 200);
      response.end(JSON.stringify({ id: '0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b' }));
    }
  });
  base = `http://acme-prod.localhost:${server.port}/grafx`;
});
afterAll(() => server.close());

const last = () => server.requests.at(-1);
const API = '/grafx/api/v1/environment/acme-prod';

describe('publish', () => {
  test('POSTs the body built from package.json and the script named by "main"', async () => {
    const dir = project();
    const result = await runCli(['publish', ...target()], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Published connector Weather 1.2.0 to acme-prod: id 0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b\n',
    );
    expect(last()?.method).toBe('POST');
    expect(last()?.url).toBe(`${API}/connectors`);
    expect(last()?.headers.authorization).toBe(`Bearer ${SECRETS.token}`);
    expect(last()?.json).toEqual({
      name: 'Weather',
      description: 'Weather data for templates',
      version: '1.2.0',
      type: 'data',
      options: { units: 'metric' },
      script: SCRIPT,
      allowedDomains: ['api.weather.example', '*.weather.example'],
      proxyOptions: { forwardedHeaders: false },
      supportedAuth: ALL_TYPES,
    });
  });

  test('reaches a local server by 127.0.0.1 or localhost, the environment then named by -e alone', async () => {
    const port = new URL(base).port;
    for (const local of [`http://127.0.0.1:${port}/grafx`, `http://localhost:${port}/grafx/`]) {
      const result = await runCli([
        'publish',
        project(),
        '-e',
        'acme-prod',
        '-b',
        local,
        '--token',
        SECRETS.token,
      ]);
      expect(result.stderr, local).toBe('');
      expect(result.code).toBe(0);
      expect(last()?.url).toBe(`${API}/connectors`);
    }
  });

  test('--connectorId republishes with PUT', async () => {
    const dir = project();
    const result = await runCli(['publish', dir, '--connectorId', 'abc', ...target()]);
    expect(result.code).toBe(0);
    expect(last()?.method).toBe('PUT');
    expect(last()?.url).toBe(`${API}/connectors/abc`);
  });

  test('refuses a project without its built script, before any request', async () => {
    const dir = project(connectorPackage(), null);
    const before = server.requests.length;
    const result = await runCli(['publish', dir, ...target()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: no built script dist\/index\.js \(its "main"\) and no connector\.ts in .*; build the connector or add connector\.ts\n$/,
    );
    expect(server.requests.length).toBe(before);
  });

  test('refuses a bad config field, naming it in package.json terms', async () => {
    const pkg = connectorPackage();
    const dir = project({
      ...pkg,
      config: { ...pkg.config, allowedDomains: ['https://api.weather.example'] },
    });
    const before = server.requests.length;
    const result = await runCli(['publish', dir, ...target()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: config\.allowedDomains\[0\] in .*package\.json: a host name such as example\.com/,
    );
    expect(server.requests.length).toBe(before);
  });

  test('--dry-run shows the body with the script size instead of the script', async () => {
    const dir = project();
    const before = server.requests.length;
    const result = await runCli(['--dry-run', 'publish', dir, ...target()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`POST ${base}/api/v1/environment/acme-prod/connectors`);
    expect(result.stdout).toContain(`"script": "<dist/index.js: ${SCRIPT.length} bytes>"`);
    expect(server.requests.length).toBe(before);
  });
});

describe('list, delete-auth, delete', () => {
  test('list prints a table, --json the server document', async () => {
    const table = await runCli(['list', ...target()]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+VERSION\s+TYPE\s+ENABLED\s+BROWSER AUTH\s+SERVER AUTH\n/);
    expect(table.stdout).toContain('0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b  Weather  1.2.0');
    expect(last()?.method).toBe('GET');
    expect(last()?.url).toBe(`${API}/connectors`);
    const json = await runCli(['list', '--json', ...target()]);
    expect(JSON.parse(json.stdout).data).toHaveLength(1);
  });

  test('--json: the command line parser’s own errors are JSON too, on stderr, exit 2', async () => {
    const before = server.requests.length;
    for (const [args, message] of [
      [
        ['list', '--json', '--colour', ...target()],
        "unknown option '--colour'; see connector-cli list --help",
      ],
      [['--json', 'frobnicate'], "unknown command 'frobnicate'; see connector-cli --help"],
      [
        ['--json', 'list', '-e'],
        /^option '-e, --environment <name>' argument missing; see connector-cli list --help$/,
      ],
    ] as const) {
      const result = await runCli(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const body = JSON.parse(result.stderr) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('USAGE');
      expect(body.error.message).toMatch(message);
    }
    // After `--`, `--json` is an argument, not the option.
    const plain = await runCli(['list', '--colour', '--', '--json']);
    expect(plain.stderr).toMatch(/^error: unknown option '--colour'/);
    expect(server.requests.length).toBe(before);
  });

  test('list --connectorId lists its authorization configurations', async () => {
    const result = await runCli(['list', '--connectorId', 'abc', ...target()]);
    expect(result.code).toBe(0);
    expect(last()?.url).toBe(`${API}/connectors/abc/auth`);
    expect(result.stdout).toMatch(/USAGE\s+TYPE\s+NAME\s+UPDATED\nserver\s+staticKey\s+Key/);
  });

  test('delete-auth sends DELETE .../auth?authUsage=', async () => {
    const result = await runCli(['delete-auth', '--connectorId', 'abc', '-au', 'browser', ...target()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Removed the browser authorization of connector abc in acme-prod.\n');
    expect(last()?.method).toBe('DELETE');
    expect(last()?.url).toBe(`${API}/connectors/abc/auth?authUsage=browser`);
  });

  test('delete-auth checks -au before anything is sent', async () => {
    const before = server.requests.length;
    const result = await runCli(['delete-auth', '--connectorId', 'abc', '-au', 'both', ...target()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: -au must be browser or server, got "both"; use -au browser or -au server\n',
    );
    expect(server.requests.length).toBe(before);
  });

  test('delete sends DELETE .../connectors/{id}', async () => {
    const result = await runCli(['delete', '--connectorId', 'abc', ...target()]);
    expect(result.code).toBe(0);
    expect(last()?.method).toBe('DELETE');
    expect(last()?.url).toBe(`${API}/connectors/abc`);
  });

  test("a server's refusal is one line: its words, then how to fix it", async () => {
    const result = await runCli(['delete', '--connectorId', MISSING, ...target()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: Connector '${MISSING}' was not found in this environment; check -e and --connectorId (connector-cli list -e <environment> -b <baseUrl> shows the connectors)\n`,
    );
  });

  test('delete without --connectorId is a usage error', async () => {
    const before = server.requests.length;
    const result = await runCli(['delete', ...target()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: missing required option --connectorId <id>; see connector-cli delete --help\n',
    );
    expect(server.requests.length).toBe(before);
  });
});

describe('help', () => {
  test.each(['set-auth', 'delete-auth', 'publish', 'list', 'delete', 'login'])(
    '%s --help',
    async (command) => {
      const result = await runCli([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: connector-cli ${command}`);
      expect(result.stdout).toMatch(/Examples?:/);
    },
  );

  test('set-auth --help has an example for every type and shows -au/-at', async () => {
    const result = await runCli(['set-auth', '--help']);
    for (const type of ALL_TYPES) expect(result.stdout).toContain(`-at ${type}`);
    expect(result.stdout).toContain('-au, --usage <usage>');
    expect(result.stdout).toContain('-at, --type <type>');
  });

  test('a reader that closes the pipe early ends the output quietly (`--help | head -1`)', async () => {
    const child = startCli(['--help']);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // The reader is gone before the CLI writes a byte: its first write meets a closed pipe.
    child.stdout?.destroy();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });

  test('no command prints the help and exits 2', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: connector-cli');
  });
});
