import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = new URL('../bin/platform-server.js', import.meta.url).pathname;
const run = promisify(execFile);

const runBin = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );

describe('the platform-server process', () => {
  let dataDir: string;
  let child: ChildProcessWithoutNullStreams;
  let output = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-process-'));
    child = spawn(process.execPath, [BIN, 'start'], {
      env: {
        ...process.env,
        PORT: '0',
        METRICS_PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
    });
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    const deadline = Date.now() + 80_000;
    while (!output.includes('export TOKEN=') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints where to look and a token that works, on the embedded database with demo data', async () => {
    expect(output).toContain('demo data loaded');
    const url = /Platform API\s+(http:\/\/\S+)\/api\/v1\/info/.exec(output)?.[1];
    const token = /export TOKEN=(\S+)/.exec(output)?.[1];
    expect(url).toBeDefined();
    expect(output).toContain(`${url}/docs`);
    const response = await fetch(`${url}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    // METRICS_PORT=0 takes a free port: the banner tells which, and it answers without a token.
    const metrics = /Metrics, open\s+(http:\/\/\S+\/metrics)/.exec(output)?.[1];
    expect(metrics).toBeDefined();
    expect((await fetch(metrics ?? '')).status).toBe(200);
  });

  it('mints development tokens the running server accepts', async () => {
    const url = /Platform API\s+(http:\/\/\S+)\/api\/v1\/info/.exec(output)?.[1];
    const minted = await runBin(
      ['token', '--sub', 'ops|cli', '--roles', 'platform:read,platform:admin', '--ttl', '5m'],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(minted.code).toBe(0);
    const response = await fetch(`${url}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${minted.stdout.trim()}` },
    });
    expect(response.status).toBe(200);
    // A misspelt role grants nothing: the token is minted, and stderr says so and names the role meant.
    const misspelt = await runBin(['token', '--sub', 'ops|cli', '--roles', 'platform:raed'], {
      DATA_DIR: dataDir,
    });
    expect(misspelt.code).toBe(0);
    expect(misspelt.stderr).toContain('platform:raed is no role of the platform');
    expect(misspelt.stderr).toContain('did you mean platform:read?');
    const misspeltReply = await fetch(`${url}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${misspelt.stdout.trim()}` },
    });
    expect(misspeltReply.status).toBe(403);
    expect(minted.stderr).toBe('');
    const bad = await runBin(['token', '--sub', 'x', '--ttl', 'forever'], { DATA_DIR: dataDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--ttl');
  });

  it('imports a data file through the running server and rejects a bad one by its first bad path', async () => {
    const file = join(dataDir, 'data.json');
    await writeFile(
      file,
      JSON.stringify({
        subscriptions: [
          {
            id: 9901,
            guid: '99000000-0000-4000-8000-000000000001',
            name: 'imported',
            clientId: '99000000-0000-4000-8000-000000000002',
            subscriptionType: 'Saas',
            pricebookVersion: '1',
            subscriptionTier: 'Team',
            environments: [
              { id: 9901, guid: '99000000-0000-4000-8000-000000000003', name: 'E', type: 'Nope' },
            ],
          },
        ],
      }),
    );
    const rejected = await runBin(['import', file], { DATA_DIR: dataDir });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain('subscriptions[0].environments[0].type');
    // A file that is not JSON at all is a bad file too: the command failed, nothing was imported.
    const notJson = join(dataDir, 'not-json.json');
    await writeFile(notJson, '{"subscriptions": [');
    const unparsed = await runBin(['import', notJson], { DATA_DIR: dataDir });
    expect(unparsed.code).toBe(1);
    expect(unparsed.stderr).toMatch(/is not valid JSON: .*Nothing was imported\./);

    // A file that holds nothing imports nothing, and does not count as the import that replaces the demo data.
    const empty = join(dataDir, 'empty.json');
    await writeFile(empty, '{}');
    expect((await runBin(['import', empty], { DATA_DIR: dataDir })).code).toBe(0);
    const demoUser = await runBin(['token', '--sub', 'auth0|alice.cohen0', '--roles', 'platform:read'], {
      DATA_DIR: dataDir,
    });
    const serverUrl = /Platform API\s+(http:\/\/\S+)\/api\/v1\/info/.exec(output)?.[1];
    const stillDemo = await fetch(`${serverUrl}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${demoUser.stdout.trim()}` },
    });
    expect(((await stillDemo.json()) as unknown[]).length).toBeGreaterThan(0);

    const good = join(dataDir, 'good.json');
    await writeFile(
      good,
      JSON.stringify({
        users: [{ id: 'auth0|imported', email: 'imported@example.com' }],
        subscriptions: [
          {
            id: 9902,
            guid: '99000000-0000-4000-8000-000000000011',
            name: 'imported',
            clientId: '99000000-0000-4000-8000-000000000012',
            subscriptionType: 'Saas',
            pricebookVersion: '1',
            subscriptionTier: 'Team',
            members: [{ userId: 'auth0|imported', subscriptionRoles: ['SubscriptionOwner'] }],
          },
        ],
      }),
    );
    const imported = await runBin(['import', good], { DATA_DIR: dataDir });
    expect(imported.code).toBe(0);
    // The running server sees the import at once: it made it, on its own database.
    const url = /Platform API\s+(http:\/\/\S+)\/api\/v1\/info/.exec(output)?.[1];
    const minted = await runBin(['token', '--sub', 'auth0|imported', '--roles', 'platform:read'], {
      DATA_DIR: dataDir,
    });
    const response = await fetch(`${url}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${minted.stdout.trim()}` },
    });
    expect(((await response.json()) as { id: number }[]).map((s) => s.id)).toEqual([9902]);
    // Recorded as the command's: its operating-system user, from the host it ran on.
    const operator = await runBin(
      ['token', '--sub', 'ops|reader', '--roles', 'platform:read,platform:admin'],
      {
        DATA_DIR: dataDir,
      },
    );
    const trail = await fetch(`${url}/api/v1/audit?action=data.import`, {
      headers: { authorization: `Bearer ${operator.stdout.trim()}` },
    });
    const [entry] = ((await trail.json()) as { data: { actor: { issuer: string }; sourceAddress: string }[] })
      .data;
    expect(entry).toMatchObject({ actor: { issuer: 'platform-server' }, sourceAddress: hostname() });
  });

  it('exports through the running server, to a file or to stdout', async () => {
    const file = join(dataDir, 'exported.json');
    const written = await runBin(['export', file], { DATA_DIR: dataDir });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toContain('exporting through it');
    const exported = JSON.parse(await readFile(file, 'utf8')) as { subscriptions: { id: number }[] };
    // The earlier import replaced the demo data: the server holds what it imported.
    expect(exported.subscriptions.map((s) => s.id)).toEqual([9902]);
    const printed = await runBin(['export'], { DATA_DIR: dataDir });
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(exported);
  });

  it('refuses a bad configuration naming the variable', async () => {
    const result = await runBin(['start'], { PORT: 'eighty', DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/PORT/);
  });

  it('names the variable and the rule of a bad configuration, never a value that may be a credential', async () => {
    const planted = 'planted-credential-7f3e91';
    const cases: [Record<string, string>, RegExp][] = [
      [
        { SECRETS_KEY: `${planted}==` },
        /^Configuration error: SECRETS_KEY is not valid: the key must be 32 bytes/m,
      ],
      [
        { DATABASE_URL: `mysql://app:${planted}@db.internal/platform` },
        /DATABASE_URL is not valid: must be a postgres/,
      ],
      [
        { DATABASE_URL: `postgres://app:${planted}@127.0.0.1:9/platform` },
        /SECRETS_KEY is required with DATABASE_URL/,
      ],
      [{ PUBLIC_URL: `not a url ${planted}` }, /PUBLIC_URL is not valid/],
      [{ METRICS_PORT: `port-${planted}` }, /METRICS_PORT is not valid: must be a port number/],
    ];
    for (const [env, expected] of cases) {
      const result = await runBin(['start'], { PORT: '0', DATA_DIR: dataDir, ...env });
      expect(result.code, JSON.stringify(env)).toBe(2);
      expect(result.stderr).toMatch(expected);
      expect(`${result.stdout}${result.stderr}`).not.toContain(planted);
    }
  });

  it('names PORT or METRICS_PORT when another process holds the port', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const port = String((holder.address() as AddressInfo).port);
    const elsewhere = await mkdtemp(join(tmpdir(), 'platform-port-'));
    try {
      const env = { DATA_DIR: elsewhere, DEMO_DATA: 'false', HOST: '127.0.0.1' };
      const busy = await runBin(['start'], { ...env, PORT: port });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`PORT ${port} on 127.0.0.1 is in use by another process`);
      const metrics = await runBin(['start'], { ...env, PORT: '0', METRICS_PORT: port });
      expect(metrics.code).toBe(1);
      expect(metrics.stderr).toContain(`METRICS_PORT ${port} on 127.0.0.1 is in use by another process`);
      const same = await runBin(['start'], { ...env, PORT: '18999', METRICS_PORT: '18999' });
      expect(same.code).toBe(2);
      expect(same.stderr).toMatch(/METRICS_PORT must differ from PORT/);
    } finally {
      holder.close();
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  // Needs a PostgreSQL server to ask for a database it does not have: TEST_DATABASE_URL's (CI sets it).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'says that the database DATABASE_URL names does not exist, not a bare SQLSTATE',
    async () => {
      const server = new URL(process.env.TEST_DATABASE_URL ?? '');
      server.pathname = `/platform_absent_${Date.now()}`;
      const elsewhere = await mkdtemp(join(tmpdir(), 'platform-db-'));
      try {
        const result = await runBin(['start'], {
          DATA_DIR: elsewhere,
          PORT: '0',
          DATABASE_URL: server.href,
          SECRETS_KEY: Buffer.alloc(32, 3).toString('base64'),
          DEV_ISSUER: 'true',
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('the database DATABASE_URL names does not exist on that server');
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }
    },
  );

  it('shuts down gracefully on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exports straight from the embedded database once the server is gone', async () => {
    const direct = await runBin(['export'], { DATA_DIR: dataDir });
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stderr).not.toContain('exporting through it');
    const exported = JSON.parse(direct.stdout) as { subscriptions: { id: number }[] };
    expect(exported.subscriptions.map((s) => s.id)).toEqual([9902]);
  });
});
