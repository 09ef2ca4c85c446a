import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importDataFile } from '../src/import/import-data-file.ts';
import { queryRows } from '../src/query-rows.ts';
import {
  ACTIVITY_MAX_AGE_MS,
  ACTIVITY_MAX_ENTRIES,
  type ActivityEntry,
  listConnectorActivity,
} from '../src/repos/environment/connector-activity.ts';
import { createConnectorActivityLog } from '../src/repos/environment/connector-activity-log.ts';
import { deleteConnector, insertConnector } from '../src/repos/environment/connectors.ts';
import { connectorActivity } from '../src/schema/environment-api.ts';
import { environments } from '../src/schema/index.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { smallFile } from './fixture.ts';

const backends = await testBackends();

describe.each(backends)('the connector activity log on $name', (backend) => {
  let database: TestDatabase;
  let environmentId: number;
  beforeEach(async () => {
    database = await backend.fresh();
    await importDataFile(database, smallFile());
    const [environment] = await database.db.select({ id: environments.id }).from(environments).limit(1);
    environmentId = environment!.id;
  });
  afterEach(async () => {
    await database.close();
  });

  const publish = async () =>
    (
      await insertConnector(database.db, {
        id: randomUUID(),
        environmentId,
        enabled: true,
        now: new Date(),
        name: 'Activity',
        description: null,
        version: '1.0.0',
        type: 'media',
        iconUrl: null,
        options: {},
        script: 'export default class A {}',
        apiVersion: null,
        allowedDomains: [],
        forwardedHeaders: false,
        supportedAuth: [],
      })
    ).id;
  const entry = (connectorId: string, at: Date, method = 'query'): ActivityEntry => ({
    connectorId,
    at,
    method,
    usage: 'server',
    status: 200,
    code: null,
    error: null,
    durationMs: 1.5,
    fetches: [],
  });
  const stored = async (connectorId: string) =>
    (
      await database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(connectorActivity)
        .where(eq(connectorActivity.connectorId, connectorId))
    )[0]!.count;

  it('writes nothing until flushed or its delay passed, then everything in order', async () => {
    const errors: unknown[] = [];
    const log = createConnectorActivityLog(database.db, { onError: (e) => errors.push(e), delayMs: 60_000 });
    const id = await publish();
    const now = Date.now();
    for (const method of ['query', 'detail', 'download']) log.record(entry(id, new Date(now), method));
    expect(await stored(id)).toBe(0);
    await log.flush();
    const rows = await listConnectorActivity(database.db, id, 10, new Date(now - 1000));
    expect(rows.map((row) => row.method)).toEqual(['download', 'detail', 'query']);
    expect(errors).toEqual([]);

    const soon = createConnectorActivityLog(database.db, { onError: (e) => errors.push(e), delayMs: 20 });
    soon.record(entry(id, new Date(now)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stored(id)).toBe(4);
  });

  it("keeps a batch whole when a connector's texts hold NUL characters, which the database refuses", async () => {
    const errors: unknown[] = [];
    const log = createConnectorActivityLog(database.db, { onError: (e) => errors.push(e), delayMs: 60_000 });
    const id = await publish();
    const other = await publish();
    const now = new Date();
    log.record(entry(other, now, 'query'));
    log.record({
      ...entry(id, now, 'download'),
      error: 'bad\u0000byte',
      fetches: [
        {
          method: 'GET',
          url: 'https://x.test/\u0000',
          status: null,
          bytes: 0,
          durationMs: 1,
          credentialsInjected: false,
          error: 'a\u0000b',
        },
      ],
      logs: ['log\u0000line'],
    });
    await log.flush();
    expect(errors).toEqual([]);
    expect(await stored(other)).toBe(1);
    const [row] = await listConnectorActivity(database.db, id, 10, new Date(0));
    expect(row?.error).toBe('bad\ufffdbyte');
    expect(row?.fetches[0]?.url).toBe('https://x.test/\ufffd');
    expect(row?.fetches[0]?.error).toBe('a\ufffdb');
    expect(row?.logs).toEqual(['log\ufffdline']);
  });

  it('lists the newest first by when each started, though a long one is written after later ones', async () => {
    const log = createConnectorActivityLog(database.db, { onError: () => {}, delayMs: 60_000 });
    const id = await publish();
    const now = Date.now();
    // A long call started first and ended last: written after the quick one that started a second later.
    log.record(entry(id, new Date(now + 1000), 'quick'));
    log.record(entry(id, new Date(now), 'long'));
    await log.flush();
    const rows = await listConnectorActivity(database.db, id, 10, new Date(now - 1000));
    expect(rows.map((row) => row.method)).toEqual(['quick', 'long']);
  });

  it("keeps the other connectors' entries of a batch when one connector was deleted meanwhile", async () => {
    const errors: unknown[] = [];
    const log = createConnectorActivityLog(database.db, { onError: (e) => errors.push(e), delayMs: 60_000 });
    const kept = await publish();
    const gone = await publish();
    log.record(entry(kept, new Date()));
    log.record(entry(gone, new Date()));
    log.record(entry(kept, new Date()));
    await deleteConnector(database.db, environmentId, gone);
    await log.flush();
    expect(await stored(kept)).toBe(2);
    expect(await stored(gone)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('reports a batch the database refuses for another reason than a deleted connector, then writes the next', async () => {
    const errors: unknown[] = [];
    const log = createConnectorActivityLog(database.db, { onError: (e) => errors.push(e), delayMs: 60_000 });
    const id = await publish();
    await database.db.execute(sql`alter table connector_activity rename to connector_activity_away`);
    log.record(entry(id, new Date()));
    await log.flush();
    expect(errors).toHaveLength(1);
    await database.db.execute(sql`alter table connector_activity_away rename to connector_activity`);
    log.record(entry(id, new Date()));
    await log.flush();
    expect(errors).toHaveLength(1);
    expect(await stored(id)).toBe(1);
  });

  it('holds a connector to its newest 1,000 entries and 7 days, at most half over between prunes', async () => {
    const log = createConnectorActivityLog(database.db, { onError: () => undefined, delayMs: 60_000 });
    const id = await publish();
    const now = Date.now();
    log.record(entry(id, new Date(now - ACTIVITY_MAX_AGE_MS - 60_000), 'ancient'));
    for (let i = 0; i < ACTIVITY_MAX_ENTRIES + 150; i++) log.record(entry(id, new Date(now)));
    await log.flush();
    // The first batch of a connector is pruned: exactly the newest 1,000, the ancient one gone.
    expect(await stored(id)).toBe(ACTIVITY_MAX_ENTRIES);
    const oldest = await listConnectorActivity(database.db, id, ACTIVITY_MAX_ENTRIES, new Date(0));
    expect(oldest.some((row) => row.method === 'ancient')).toBe(false);

    for (let i = 0; i < 50; i++) log.record(entry(id, new Date(now), 'later'));
    await log.flush();
    expect(await stored(id)).toBe(ACTIVITY_MAX_ENTRIES + 50);
    // A read never shows more than the bound, and the newest first.
    const read = await listConnectorActivity(database.db, id, ACTIVITY_MAX_ENTRIES, new Date(0));
    expect(read).toHaveLength(ACTIVITY_MAX_ENTRIES);
    expect(read[0]?.method).toBe('later');

    for (let i = 0; i < 460; i++) log.record(entry(id, new Date(now), 'latest'));
    await log.flush();
    expect(await stored(id)).toBe(ACTIVITY_MAX_ENTRIES);
  });

  // Only where it is used: on PostgreSQL a VACUUM cannot free rows other sessions' snapshots (CI's other tests) may
  // still see, and autovacuum does the job there.
  it.runIf(backend.name === 'pglite')(
    'gives the space of pruned entries back when asked to (the embedded database has no autovacuum)',
    async () => {
      const tableSize = async () =>
        Number(
          (
            await queryRows<{ size: string }>(
              database.db,
              sql`select pg_total_relation_size('connector_activity')::text as size`,
            )
          )[0]!.size,
        );
      const log = createConnectorActivityLog(database.db, {
        onError: () => undefined,
        delayMs: 60_000,
        reclaimSpace: true,
      });
      const id = await publish();
      const write = async (entries: number) => {
        for (let i = 0; i < entries; i++) log.record(entry(id, new Date()));
        await log.flush();
      };
      await write(2 * ACTIVITY_MAX_ENTRIES);
      const settled = await tableSize();
      // Without the vacuum the table held every entry's space: four thousand more made it 2.3 times as large, with it 1.3.
      for (let round = 0; round < 8; round++) await write(ACTIVITY_MAX_ENTRIES / 2);
      expect(await stored(id)).toBe(ACTIVITY_MAX_ENTRIES);
      expect(await tableSize()).toBeLessThanOrEqual(settled * 1.5);
    },
  );
});
