/**
 * WORKERS (docs/configuration.md): on PostgreSQL, `platform-server start` forks that many workers sharing one
 * port; the embedded database stays one process.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { connectorBody, connectorsPath } from './proxy-e2e/support.ts';
import { USERS } from './support/fixture.ts';
import { startTestIssuer, type TestIssuer } from './support/issuer.ts';
import { seededDatabase } from './support/seeded.ts';
import { type ServerChild, startServerChild } from './support/server-child.ts';

/** Pids of the processes whose parent is `pid` (Linux /proc). */
const childrenOf = async (pid: number): Promise<number[]> => {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(join('/proc', entry, 'stat'), 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces: state, then the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
};

describe('WORKERS', () => {
  it('is one process on the embedded database: auto means one, a number above one is refused by name', () => {
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(1);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS above 1 needs DATABASE_URL/);
    const postgres = {
      DATABASE_URL: 'postgres://db/platform',
      SECRETS_KEY: Buffer.alloc(32).toString('base64'),
    };
    expect(loadConfig({ ...postgres, WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ ...postgres, WORKERS: 'auto' }).workers).toBeGreaterThanOrEqual(1);
    expect(() => loadConfig({ ...postgres, WORKERS: 'many' })).toThrow(/WORKERS is not valid/);
    expect(() => loadConfig({ ...postgres, WORKERS: '0' })).toThrow(/WORKERS is not valid/);
  });
});

const postgres = (await testBackends()).find((backend) => backend.name === 'postgres');

describe.skipIf(!postgres)('WORKERS=2 on PostgreSQL', () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let server: ServerChild;

  beforeAll(async () => {
    database = await seededDatabase(postgres!);
    issuer = await startTestIssuer();
    server = await startServerChild({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      issuerUrl: issuer.url,
      env: { WORKERS: '2' },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await issuer.close();
    await database.close();
  });

  it('serves one port from two workers, each seeing the writes of the other, and stops them all', async () => {
    const workers = await childrenOf(server.child.pid!);
    expect(workers).toHaveLength(2);
    const headers = {
      authorization: `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] })}`,
      'content-type': 'application/json',
    };
    const published = await fetch(`${server.url}${connectorsPath}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(connectorBody()),
    });
    expect(published.status).toBe(201);
    const { id } = (await published.json()) as { id: string };
    // New connections go to the workers in turn: within 2 s every one lists the new connector.
    const deadline = Date.now() + 2000;
    let listedBy = 0;
    while (listedBy < 8 && Date.now() < deadline) {
      const list = await fetch(`${server.url}${connectorsPath}`, {
        headers: { ...headers, connection: 'close' },
      });
      const { data } = (await list.json()) as { data: { id: string }[] };
      listedBy = data.some((connector) => connector.id === id) ? listedBy + 1 : 0;
    }
    expect(listedBy).toBe(8);

    await server.stop();
    expect(server.child.exitCode).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
