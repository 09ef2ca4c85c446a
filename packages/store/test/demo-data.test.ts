import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_OWNER_ID, demoDataFile } from '../src/demo/demo-data-file.ts';
import { seedDemoData } from '../src/demo/seed-demo-data.ts';
import { queryRows } from '../src/query-rows.ts';
import { type TestDatabase, testBackends } from '../src/test-support.ts';
import { tableCounts } from './counts.ts';

const now = new Date('2026-03-15T15:30:00Z');

describe('demoDataFile', () => {
  it('is deterministic and covers what the demo needs', () => {
    const file = demoDataFile({ now });
    expect(JSON.stringify(demoDataFile({ now }))).toBe(JSON.stringify(file));
    expect(JSON.stringify(demoDataFile({ now, seed: 2 }))).not.toBe(JSON.stringify(file));

    expect(file.subscriptions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(file.subscriptions.map((s) => s.status))).toEqual(new Set(['Active', 'Inactive']));
    expect(new Set(file.subscriptions.map((s) => s.subscriptionType))).toEqual(
      new Set(['Saas', 'OnPremises']),
    );
    const acme = file.subscriptions.find((s) => s.id === 101)!;
    expect(acme.name).toBe('acme');
    expect(acme.environments.find((e) => e.type === 'Production')?.technicalName).toBe('acme-prod');
    expect(acme.environments.some((e) => e.technicalName === 'acme-sandbox')).toBe(true);

    const environments = file.subscriptions.flatMap((s) => s.environments);
    expect(environments.length).toBeGreaterThanOrEqual(10);
    expect(new Set(environments.map((e) => e.type))).toEqual(
      new Set(['Production', 'Sandbox', 'Development']),
    );

    expect(file.users).toHaveLength(24);
    expect(file.users.find((u) => u.id === DEMO_OWNER_ID)?.email).toBe('owner@demo.example');
    const members = file.subscriptions.flatMap((s) => s.members);
    for (const s of file.subscriptions) {
      expect(s.members.find((m) => m.userId === DEMO_OWNER_ID)?.subscriptionRoles).toContain(
        'SubscriptionOwner',
      );
    }
    const roles = new Set(
      members.flatMap((m) => [...m.subscriptionRoles, ...Object.values(m.environmentRoles).flat()]),
    );
    expect(roles).toEqual(
      new Set([
        'SubscriptionOwner',
        'SubscriptionAdmin',
        'SubscriptionMember',
        'EnvironmentAdmin',
        'TemplateDesigner',
        'ContentUser',
      ]),
    );
    expect(new Set(members.map((m) => m.membershipType))).toEqual(new Set(['Invitation', 'Federated']));

    const events = file.renderEvents;
    expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['Pdf', 'Image', 'Studio-Gif', 'Mp4']));
    expect(events.some((e) => e.watermarked)).toBe(true);
    const times = events.map((e) => Date.parse(e.at));
    expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime());
    expect(Math.min(...times)).toBeLessThan(Date.parse('2025-02-16T00:00:00Z'));
    expect(events.length).toBeLessThan(60_000);
  });
});

const backends = await testBackends();

describe.each(backends)('seedDemoData on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.fresh();
  });
  afterEach(() => database.close());

  it('loads the demo into an empty database once', async () => {
    const summary = await seedDemoData(database, now);
    expect(summary?.subscriptions).toBe(4);
    const counts = await tableCounts(database.db);
    expect(counts.environments).toBe(12);
    expect(counts.subject_types).toBe(120);
    expect(await seedDemoData(database, now)).toBeUndefined();
    expect(await tableCounts(database.db)).toEqual(counts);
    // Weekdays render more than weekends.
    const rows = await queryRows<{ weekend: boolean; avg: number }>(
      database.db,
      sql`select extract(isodow from day) >= 6 as weekend, avg(count)::float as avg
          from render_daily where not watermarked group by 1 order by 1`,
    );
    expect(rows[0]!.avg).toBeGreaterThan(rows[1]!.avg * 2);
  });
});
