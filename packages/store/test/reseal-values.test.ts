import { randomUUID } from 'node:crypto';
import { eq, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countSealedValues,
  createSecretBox,
  type Db,
  insertConnector,
  queryRows,
  resealValues,
  schema,
  seedDemoData,
  setConnectorAuth,
} from '../src/index.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

const OLD = `old:${Buffer.alloc(32, 1).toString('base64')}`;
const BOTH = `new:${Buffer.alloc(32, 2).toString('base64')},${OLD}`;
const dialect = new PgDialect();

describe.each(await testBackends())('re-sealing stored values under the first key, on $name', (backend) => {
  let database: TestDatabase;
  let ids: string[];

  beforeEach(async () => {
    database = await backend.fresh();
    await seedDemoData(database, new Date());
    const [environment] = await queryRows<{ id: number }>(
      database.db,
      sql`select id from environments where technical_name = 'acme-prod'`,
    );
    const connector = await insertConnector(database.db, {
      id: randomUUID(),
      environmentId: environment!.id,
      name: 'static',
      description: null,
      version: '1.0.0',
      type: 'data',
      iconUrl: null,
      options: {},
      script: 'export default class Connector {}',
      apiVersion: '1.14.0',
      allowedDomains: ['example.com'],
      forwardedHeaders: false,
      supportedAuth: ['staticKey'],
      enabled: true,
      now: new Date(),
    });
    ids = [];
    for (const usage of ['browser', 'server'] as const) {
      const id = randomUUID();
      ids.push(id);
      await setConnectorAuth(database.db, {
        id,
        connectorId: connector.id,
        usage,
        type: 'staticKey',
        name: usage,
        publicData: { key: 'X-Api-Key' },
        secretData: createSecretBox(OLD).seal(JSON.stringify({ value: `${usage}-secret` })),
        now: new Date(),
      });
    }
  });
  afterEach(() => database.close());

  const secretOf = async (id: string) =>
    (await database.db.select().from(schema.connectorAuth).where(eq(schema.connectorAuth.id, id)))[0]!
      .secretData;

  it('never overwrites a value written between its read and its write (compare-and-set)', async () => {
    const [, second] = ids as [string, string];
    const written = createSecretBox(BOTH).seal(JSON.stringify({ value: 'set meanwhile' }));
    let interleaved = false;
    // The database as the rotation sees it: right after it has read its first batch, a request on another replica
    // sets the second authorization again.
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property !== 'execute') return Reflect.get(target, property, receiver);
        return async (query: SQL) => {
          const result = await target.execute(query);
          if (!interleaved && /^select .* limit /s.test(dialect.sqlToQuery(query).sql)) {
            interleaved = true;
            await target
              .update(schema.connectorAuth)
              .set({ secretData: written })
              .where(eq(schema.connectorAuth.id, second));
          }
          return result;
        };
      },
    }) as Db;
    const summary = await resealValues(db, createSecretBox(BOTH), { batchSize: 10, pauseMs: 0 });
    expect(interleaved).toBe(true);
    // The write made meanwhile stands as it was written; the other value is re-sealed.
    expect(await secretOf(second)).toBe(written);
    expect(summary.resealed).toBe(1);
    expect(summary.counts).toEqual({ new: 2 });
    const first = await secretOf(ids[0]!);
    expect(first.startsWith('v2.new.')).toBe(true);
    expect(JSON.parse(createSecretBox(BOTH).open(first))).toEqual({ value: 'browser-secret' });
  });

  it('is idempotent, and leaves what it cannot open where it is', async () => {
    expect(
      await resealValues(database.db, createSecretBox(BOTH), { batchSize: 1, pauseMs: 0 }),
    ).toMatchObject({
      resealed: 2,
      unopened: 0,
      before: { old: 2 },
      counts: { new: 2 },
    });
    expect(
      await resealValues(database.db, createSecretBox(BOTH), { batchSize: 1, pauseMs: 0 }),
    ).toMatchObject({
      resealed: 0,
      counts: { new: 2 },
    });
    const third = `third:${Buffer.alloc(32, 3).toString('base64')}`;
    expect(
      await resealValues(database.db, createSecretBox(third), { batchSize: 1, pauseMs: 0 }),
    ).toMatchObject({
      resealed: 0,
      unopened: 2,
      counts: { new: 2 },
    });
    expect(await countSealedValues(database.db, createSecretBox(BOTH))).toEqual({ new: 2 });
  });
});
