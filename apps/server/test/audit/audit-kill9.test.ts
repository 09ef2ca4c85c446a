/**
 * `kill -9` of the real `platform-server start` process while writes stream in, then the database read directly: every
 * change that committed has its audit entry and every entry its change (they commit in one transaction), and every
 * acknowledged write is there. PostgreSQL when TEST_DATABASE_URL is set, else PGlite.
 */
import { listAuditEntries, openDatabase, schema } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_PROD, USERS } from '../support/fixture.ts';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { seededDatabase } from '../support/seeded.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';

const backends = await testBackends();
const backend = backends.find((b) => b.name === 'postgres') ?? backends[0]!;
const WRITERS = 4;

describe(`kill -9 of the server while audited writes stream in (${backend.name})`, () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let server: ServerChild | undefined;

  beforeAll(async () => {
    database = await seededDatabase(backend);
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await server?.stop().catch(() => {});
    await issuer?.close();
    await database?.close();
  });

  it('leaves every change with its entry and no entry without its change', async () => {
    server = await startServerChild({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      issuerUrl: issuer.url,
    });
    const owner = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] })}`;
    const url = `${server.url}/grafx/api/v1/environment/acme-prod/tags`;
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const name = `kill9-${n++}`;
        try {
          const response = await fetch(url, {
            method: 'POST',
            headers: { authorization: owner, 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          });
          if (response.status === 201) acknowledged.push(((await response.json()) as { id: string }).id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.kill9();
    server = undefined;
    stop = true;
    await Promise.all(writers);

    const reopened = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    try {
      const [environment] = await reopened.db
        .select({ id: schema.environments.id })
        .from(schema.environments)
        .where(eq(schema.environments.guid, ENV_PROD));
      const tags = await reopened.db
        .select({ id: schema.tags.id })
        .from(schema.tags)
        .where(eq(schema.tags.environmentId, environment!.id));
      const { rows } = await listAuditEntries(reopened.db, { action: 'tag.create' }, 100_000);
      const tagIds = new Set(tags.map((tag) => tag.id));
      const entryIds = new Set(rows.map((row) => row.targetId));
      expect(rows.length).toBe(entryIds.size);
      expect([...entryIds].sort()).toEqual([...tagIds].sort());
      for (const id of acknowledged) expect(tagIds.has(id)).toBe(true);
    } finally {
      await reopened.close();
    }
  });
});
