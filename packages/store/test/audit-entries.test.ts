import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toAuditEntry } from '../src/audit/audit-file.ts';
import { createFingerprint } from '../src/audit/fingerprint.ts';
import { listAuditEntries } from '../src/audit/list-audit-entries.ts';
import { type AuditEntryInput, recordAudit } from '../src/audit/record-audit.ts';
import { sweepAuditEntries } from '../src/audit/sweep-audit-entries.ts';
import { importDataFile } from '../src/import/import-data-file.ts';
import { parseSecretsKeys } from '../src/secrets-keys.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';

const backends = await testBackends();
const ACME = '0a000000-0000-4000-8000-000000000101';
const GLOBEX = '0a000000-0000-4000-8000-000000000102';

/** A data file of subscriptions by integer id and guid. */
const subscriptionsFile = (list: [number, string][]) => ({
  subscriptions: list.map(([id, guid]) => ({
    id,
    guid,
    name: `s${id}`,
    clientId: guid,
    subscriptionType: 'Saas',
    pricebookVersion: '1',
    subscriptionTier: 'Team',
  })),
});

const entry = (at: Date, over: Partial<AuditEntryInput> = {}): AuditEntryInput => ({
  at,
  actor: { issuer: 'https://issuer.example', subject: 'auth0|alice' },
  action: 'tag.create',
  outcome: 'success',
  target: { type: 'tag', id: 't1', environment: 'Acme-Prod', subscriptionId: 101 },
  sourceAddress: '203.0.113.9',
  traceId: '0af7651916cd43dd8448eb211c80319c',
  changes: { name: { to: 'Spring' } },
  ...over,
});

describe.each(backends)('the audit trail on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('commits an entry with its transaction and drops it when the transaction fails', async () => {
    await database.db.transaction((tx) => recordAudit(tx, entry(new Date())));
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx, entry(new Date(), { action: 'tag.delete' }));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const { rows } = await listAuditEntries(database.db, {}, 10);
    expect(rows.map((row) => row.action)).toEqual(['tag.create']);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of an entry', async () => {
    await recordAudit(database.db, entry(new Date()));
    await expect(database.db.execute(sql`update audit_entries set action = 'forged'`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from audit_entries`)).rejects.toThrow();
    await expect(database.db.execute(sql`truncate audit_entries`)).rejects.toThrow();
    const { rows } = await listAuditEntries(database.db, {}, 10);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.action).toBe('tag.create');
  });

  it('sweeps only the entries past the retention period', async () => {
    const now = new Date('2026-11-28T00:00:00Z');
    await recordAudit(database.db, entry(new Date('2025-01-01T00:00:00Z'), { action: 'old' }));
    await recordAudit(database.db, entry(new Date('2026-11-01T00:00:00Z'), { action: 'recent' }));
    expect(await sweepAuditEntries(database.db, 400, now)).toBe(1);
    const { rows } = await listAuditEntries(database.db, {}, 10);
    expect(rows.map((row) => row.action)).toEqual(['recent']);
    // The sweep's permission ends with its transaction.
    await expect(database.db.execute(sql`delete from audit_entries`)).rejects.toThrow();
  });

  it('pages newest first under each filter', async () => {
    await importDataFile(
      database,
      subscriptionsFile([
        [101, ACME],
        [102, GLOBEX],
      ]),
    );
    const base = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < 7; i++) {
      await recordAudit(
        database.db,
        entry(new Date(base + i * 1000), {
          actor: { issuer: 'i', subject: i % 2 ? 'bob' : 'alice' },
          target: {
            type: 'tag',
            id: `t${i}`,
            environment: i < 4 ? 'acme-prod' : 'acme-dev',
            subscriptionId: i < 6 ? 101 : 102,
          },
        }),
      );
    }
    const seen: string[] = [];
    let after: Awaited<ReturnType<typeof listAuditEntries>>['next'];
    do {
      const page = await listAuditEntries(database.db, { subscriptionGuids: [ACME] }, 2, after);
      seen.push(...page.rows.map((row) => row.targetId));
      after = page.next;
    } while (after);
    expect(seen).toEqual(['t5', 't4', 't3', 't2', 't1', 't0']);
    const bob = await listAuditEntries(database.db, { actor: 'bob', environment: 'ACME-PROD' }, 10);
    expect(bob.rows.map((row) => row.targetId)).toEqual(['t3', 't1']);
    const window = await listAuditEntries(
      database.db,
      { from: new Date(base + 2000), to: new Date(base + 4000) },
      10,
    );
    expect(window.rows.map((row) => row.targetId)).toEqual(['t4', 't3', 't2']);
    expect((await listAuditEntries(database.db, { subscriptionGuids: [] }, 10)).rows).toEqual([]);
  });
});

describe.each(backends)('whose entries they are, on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('keeps an entry with the subscription it was written for: one created later under its integer id never reads it', async () => {
    await importDataFile(database, subscriptionsFile([[101, ACME]]));
    await recordAudit(database.db, entry(new Date()));
    // The subscription goes (as the demo data does at the first import), and another comes under the same id.
    await database.db.execute(sql`delete from subscriptions where id = 101`);
    const NEWCO = '0a000000-0000-4000-8000-0000000000ff';
    await importDataFile(database, subscriptionsFile([[101, NEWCO]]));
    expect((await listAuditEntries(database.db, { subscriptionGuids: [NEWCO] }, 10)).rows).toEqual([]);
    const { rows } = await listAuditEntries(database.db, { subscriptionGuids: [ACME] }, 10);
    expect(rows.map((row) => toAuditEntry(row).target.subscriptionId)).toEqual([ACME]);
  });
});

describe('audit fingerprints', () => {
  it('are equal for equal values, differ per key, and never hold the value', () => {
    const oneKey = Buffer.alloc(32, 1).toString('base64');
    const twoKey = Buffer.alloc(32, 2).toString('base64');
    const fromSetting = (setting: string) => createFingerprint(parseSecretsKeys(setting)[0]!.bytes);
    const one = fromSetting(oneKey);
    const two = fromSetting(`new:${twoKey},old:${oneKey}`);
    // The same key written as a named key fingerprints as the bare key does.
    expect(fromSetting(`default:${oneKey}`)('hunter2')).toBe(one('hunter2'));
    expect(one('hunter2')).toMatch(/^sha256:[0-9a-f]{8}$/);
    expect(one('hunter2')).toBe(one('hunter2'));
    expect(one('hunter2')).not.toBe(one('hunter3'));
    expect(two('hunter2')).not.toBe(one('hunter2'));
  });
});
