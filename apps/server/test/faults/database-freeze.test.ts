/**
 * PostgreSQL frozen under a running server (every process of it stopped with SIGSTOP: connections stay open,
 * nothing answers, no error ever arrives), then thawed; and a server started against a frozen PostgreSQL
 * (docs/configuration.md, "Database timeouts"). A PostgreSQL of the test's own, from Debian's binaries, so the
 * machine's shared one is never frozen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDataFile, migrate, openDatabase } from '@platform/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { type OwnPostgres, ownPostgresAvailable, startOwnPostgres } from '../support/own-postgres.ts';
import { contractViolations, sendRaw } from '../support/raw-http.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';

const available = ownPostgresAvailable();
if (!available)
  console.info('[database-freeze] skipped: Debian PostgreSQL binaries (/usr/lib/postgresql) not found');

describe.skipIf(!available)('PostgreSQL frozen with SIGSTOP', () => {
  let pg: OwnPostgres;
  let issuer: TestIssuer;
  let server: ServerChild;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    issuer = await startTestIssuer();
    dataDir = await mkdtemp(join(tmpdir(), 'freeze-'));
    const database = await openDatabase({ databaseUrl: pg.url, dataDir });
    await migrate(database);
    await importDataFile(database, fixture(new Date()));
    await database.close();
    server = await startServerChild({ dataDir, databaseUrl: pg.url, issuerUrl: issuer.url });
    token = await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] });
  });
  afterAll(async () => {
    pg?.thaw();
    await server?.stop();
    await pg?.stop();
    await issuer?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const timed = async (path: string, init: { method?: string; body?: string } = {}) => {
    const started = performance.now();
    const reply = await sendRaw(
      server.url,
      {
        method: init.method ?? 'GET',
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.body ? { body: init.body } : {}),
      },
      { timeoutMs: 20_000 },
    );
    return { reply: reply!, ms: performance.now() - started };
  };
  const newTag = () => ({ method: 'POST', body: JSON.stringify({ name: `freeze-${Math.random()}` }) });
  const TAGS = '/grafx/api/v1/environment/acme-prod/tags';

  it('answers ping at once, 503 with Retry-After within 5 s, ready 503 until thawed, and recovers', async () => {
    expect((await timed('/api/ready')).reply.status).toBe(200);
    expect((await timed(TAGS, newTag())).reply.status).toBe(201);

    pg.freeze();
    const frozenAt = performance.now();
    // A write in flight when the database froze, and one sent a moment later.
    const [first, second] = await Promise.all([
      timed(TAGS, newTag()),
      new Promise((resolve) => setTimeout(resolve, 500)).then(() => timed(TAGS, newTag())),
    ]);
    for (const { reply, ms } of [first, second]) {
      expect(reply.status).toBe(503);
      expect(ms).toBeLessThan(5000);
      expect(reply.headers['retry-after']).toBeDefined();
      expect(contractViolations(reply, { allowedStatuses: [503] })).toEqual([]);
    }
    // Known unavailable now: the next ones are refused at once, and ping never waits.
    const refused = await timed(TAGS, newTag());
    expect(refused.reply.status).toBe(503);
    expect(refused.ms).toBeLessThan(500);
    for (let i = 0; i < 20; i++) {
      const ping = await timed('/api/ping');
      expect(ping.reply.status).toBe(200);
      expect(ping.ms).toBeLessThan(100);
    }
    const ready = await timed('/api/ready');
    expect(ready.reply.status).toBe(503);
    expect(ready.ms).toBeLessThan(100);
    expect(ready.reply.headers['retry-after']).toBeDefined();
    expect(performance.now() - frozenAt).toBeLessThan(10_000);

    pg.thaw();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await timed('/api/ready')).reply.status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await timed(TAGS, newTag())).reply.status).toBe(201);
  });

  it('gives up a start against a frozen database within 30 s, naming the cause', async () => {
    pg.freeze();
    try {
      const started = performance.now();
      const attempt = await startServerChild({
        dataDir: await mkdtemp(join(tmpdir(), 'freeze-start-')),
        databaseUrl: pg.url,
        issuerUrl: issuer.url,
      }).then(
        (child) => ({ child, error: undefined }),
        (error: Error) => ({ child: undefined, error }),
      );
      await attempt.child?.stop();
      expect(attempt.error?.message).toMatch(
        /exited \(1\).*did not answer within 5 s \(DATABASE_CONNECT_TIMEOUT_SECONDS\)/s,
      );
      expect(attempt.error?.message).not.toContain('postgres://');
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      pg.thaw();
    }
  });
});
