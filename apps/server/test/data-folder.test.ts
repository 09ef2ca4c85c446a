import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = new URL('../bin/platform-server.js', import.meta.url).pathname;
const run = promisify(execFile);

type Started = { child: ChildProcess; output: () => string; exited: Promise<unknown> };

const freePort = async (): Promise<number> => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

const env = (dataDir: string, port: number) => ({
  PATH: process.env.PATH ?? '',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO_DATA: 'false',
  LOG_LEVEL: 'warn',
});

const startServer = (dataDir: string, port: number): Started => {
  const child = spawn(process.execPath, [BIN, 'start'], { env: env(dataDir, port) });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output, exited: once(child, 'exit') };
};

const runBin = (args: string[], dataDir: string, port: number) =>
  run(process.execPath, [BIN, ...args], { env: env(dataDir, port), timeout: 120_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );

/**
 * Connects in a tight loop while the server starts; on the very first connection that succeeds, sends one
 * request and resolves with the raw answer and whether server.json existed when the answer came.
 */
const firstAnswer = (port: number, dataDir: string, alive: () => boolean) =>
  new Promise<{ answer: string; announced: boolean }>((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const attempt = () => {
      if (!alive() || Date.now() > deadline) return reject(new Error('the server never opened its port'));
      const socket = connect(port, '127.0.0.1');
      socket.once('error', () => setTimeout(attempt, 2));
      socket.once('connect', () => {
        socket.write('GET /api/v1/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
        let answer = '';
        let announced = false;
        socket.on('data', (chunk) => {
          if (answer === '') announced = existsSync(join(dataDir, 'server.json'));
          answer += String(chunk);
        });
        socket.once('close', () => resolve({ answer, announced }));
        socket.setTimeout(30_000, () => socket.destroy(new Error('no answer within 30 s')));
      });
    };
    attempt();
  });

/** Resolves once the data folder's lock names `pid` as its holder. */
const heldBy = async (dataDir: string, pid: number | undefined) => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const text = await readFile(join(dataDir, 'owner.lock'), 'utf8').catch(() => '');
    if (text.includes(`"pid":${pid},`)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`pid ${pid} never took the lock`);
};

describe('one owner per data folder, and ready means ready', () => {
  let dataDir: string;
  let port: number;
  let first: Started;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-owner-'));
    port = await freePort();
  });
  afterAll(async () => {
    if (first?.child.exitCode === null) first.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers a request sent the instant the port opens, after server.json and the banner exist', async () => {
    first = startServer(dataDir, port);
    const { answer, announced } = await firstAnswer(port, dataDir, () => first.child.exitCode === null);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(announced).toBe(true);
    await expect.poll(() => first.output(), { timeout: 5000 }).toContain('Platform API');
  });

  it('refuses a second start on the folder, naming the holder', async () => {
    const second = await runBin(['start'], dataDir, await freePort());
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).toContain(`http://127.0.0.1:${port}`);
    // The refused process took nothing away from the holder.
    expect(existsSync(join(dataDir, 'server.json'))).toBe(true);
    expect(existsSync(join(dataDir, 'import.sock'))).toBe(true);
  });

  it('imports through the running server, keeps the import over a restart, and takes over a dead holder', async () => {
    const file = join(dataDir, 'data.json');
    const data = (n: number) => ({
      users: [{ id: `auth0|user${n}`, email: `user${n}@example.com` }],
      subscriptions: [
        {
          id: 9900 + n,
          guid: `99000000-0000-4000-8000-00000000000${n}`,
          name: `imported ${n}`,
          clientId: `99000000-0000-4000-8000-00000000001${n}`,
          subscriptionType: 'Saas',
          pricebookVersion: '1',
          subscriptionTier: 'Team',
          members: [{ userId: `auth0|user${n}`, subscriptionRoles: ['SubscriptionOwner'] }],
        },
      ],
    });
    await writeFile(file, JSON.stringify(data(1)));
    const through = await runBin(['import', file], dataDir, port);
    expect(through.stderr).toContain('importing through it');
    expect(through.code).toBe(0);

    // Killed without a chance to clean up: its lock stays behind, and the next start takes it over.
    first.child.kill('SIGKILL');
    await first.exited;
    first = startServer(dataDir, port);
    // An export asked once the starting server holds the folder waits for it and reads through it, never beside it.
    await heldBy(dataDir, first.child.pid);
    const exporting = runBin(['export'], dataDir, port);
    await firstAnswer(port, dataDir, () => first.child.exitCode === null);
    expect(first.output()).toContain('Taking over the lock');
    const exported = await exporting;
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('exporting through it');
    expect(exported.stdout).toContain('"imported 1"');

    await writeFile(file, JSON.stringify(data(2)));
    const again = await runBin(['import', file], dataDir, port);
    expect(again.code).toBe(0);
    // Importing the first file again changes nothing and fails nowhere: no row was lost or left orphaned.
    await writeFile(file, JSON.stringify(data(1)));
    expect((await runBin(['import', file], dataDir, port)).code).toBe(0);

    const token = (
      await runBin(['token', '--sub', 'ops', '--roles', 'platform:read,platform:admin'], dataDir, port)
    ).stdout;
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/subscriptions`, {
      headers: { authorization: `Bearer ${token.trim()}` },
    });
    const ids = ((await response.json()) as { id: number }[]).map((s) => s.id).sort();
    expect(ids).toEqual([9901, 9902]);

    // Stopped cleanly, the server hands the folder back: an import then takes it itself.
    first.child.kill('SIGTERM');
    await first.exited;
    expect(existsSync(join(dataDir, 'owner.lock'))).toBe(false);
    const alone = await runBin(['import', file], dataDir, port);
    expect(alone.code).toBe(0);
    expect(alone.stderr).not.toContain('importing through it');
    const exportedAlone = await runBin(['export'], dataDir, port);
    expect(exportedAlone.code).toBe(0);
    expect(exportedAlone.stderr).not.toContain('exporting through it');
    expect(exportedAlone.stdout).toContain('"imported 2"');
    expect(existsSync(join(dataDir, 'owner.lock'))).toBe(false);
  });
});
