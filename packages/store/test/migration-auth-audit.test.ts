import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { migrateBefore } from './migrate-before.ts';

type Carried = {
  actor_subject: string;
  action: string;
  target_type: string;
  target_id: string;
  environment: string | null;
  subscription_id: number | null;
  changes: Record<string, unknown>;
};

describe.each(await testBackends())('migration 0010 on $name', (backend) => {
  let database: TestDatabase | undefined;
  afterEach(() => database?.close());

  it('carries the old authorization log into the audit trail, only what predates the trail, then drops it', async () => {
    database = await backend.fresh({ migrated: false });
    await migrateBefore(database, '0010');

    const connector = randomUUID();
    // The environment without its subscription: only the columns this migration reads matter here.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`insert into environments (id, guid, subscription_id, name, technical_name, type)
            values (70, ${randomUUID()}, 7, 'Acme production', 'acme-prod', 'Production')`,
      );
    });
    const log = [
      ['2025-01-01T10:00:00Z', 'auth.set', 'server', 'staticKey'],
      ['2025-01-02T10:00:00Z', 'auth.deleted', 'server', 'staticKey'],
      ['2025-01-03T10:00:00Z', 'sharedHeaders.set', null, null],
      ['2025-01-04T10:00:00Z', 'connector.deleted', null, null],
      // Written beside the trail's own entry of the same change: not carried twice.
      ['2025-03-01T10:00:00Z', 'auth.set', 'browser', 'staticKey'],
    ] as const;
    for (const [at, action, usage, type] of log) {
      await database.db.execute(
        sql`insert into auth_audit (at, actor, environment_id, connector_id, action, usage, type)
            values (${at}, 'auth0|owner', 70, ${connector}, ${action}, ${usage}, ${type})`,
      );
    }
    await database.db.execute(
      sql`insert into audit_entries (id, at, actor_issuer, actor_subject, action, outcome, target_type, target_id, environment, subscription_id, source_address, trace_id, changes)
          values (${randomUUID()}, '2025-03-01T10:00:00Z', 'https://issuer.example/', 'auth0|owner', 'connector.auth.set', 'success',
                  'connectorAuthorization', ${connector}, 'acme-prod', 7, '203.0.113.7', ${'a'.repeat(32)},
                  '{"usage":{"to":"browser"},"type":{"to":"staticKey"}}'::jsonb)`,
    );

    // Up to this migration: the later ones keep the subscription by guid (migration-audit-guid.test.ts).
    await migrateBefore(database, '0011');
    const trail = await queryRows<Carried>(
      database.db,
      sql`select actor_subject, action, target_type, target_id, environment, subscription_id, changes
          from audit_entries order by at`,
    );
    const place = {
      target_id: connector,
      environment: 'acme-prod',
      subscription_id: 7,
      actor_subject: 'auth0|owner',
    };
    expect(trail).toEqual([
      {
        ...place,
        action: 'connector.auth.set',
        target_type: 'connectorAuthorization',
        changes: { usage: { to: 'server' }, type: { to: 'staticKey' } },
      },
      {
        ...place,
        action: 'connector.auth.delete',
        target_type: 'connectorAuthorization',
        changes: { usage: { from: 'server' }, type: { from: 'staticKey' } },
      },
      { ...place, action: 'connector.sharedHeaders.set', target_type: 'connector', changes: {} },
      { ...place, action: 'connector.delete', target_type: 'connector', changes: {} },
      {
        ...place,
        action: 'connector.auth.set',
        target_type: 'connectorAuthorization',
        changes: { usage: { to: 'browser' }, type: { to: 'staticKey' } },
      },
    ]);
    const [left] = await queryRows<{ name: string | null }>(
      database.db,
      sql`select to_regclass('auth_audit')::text as name`,
    );
    expect(left?.name).toBeNull();
  });
});
