/**
 * The subscription reads are answered from memory until data behind them changes (packages/api read cache). These
 * tests hold the cache to what a client expects: its own write shows in its very next read, and a write made
 * past the API (another replica, an operator's SQL) shows within moments.
 */
import { SubscriptionModel, SubscriptionRendersModel } from '@platform/core';
import { openDatabase } from '@platform/store';
import { type TestBackend, testBackends } from '@platform/store/testing';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENV_PROD, fixture, SUB_A, USERS } from '../support/fixture.ts';
import { json, seededPlatform } from '../support/seeded.ts';

/**
 * The backend, but its change notifications never arrive: as if each were still on its way when the client's next
 * read comes. The server must not need them for its own writes.
 */
const notificationsDelayed = (backend: TestBackend): TestBackend => ({
  ...backend,
  fresh: async (options) => {
    const database = await backend.fresh(options);
    return { ...database, watchChanges: () => database.watchChanges(() => {}) };
  },
});

describe.each(
  (await testBackends()).flatMap((backend) => [
    { name: backend.name, backend },
    { name: `${backend.name}, notifications delayed`, backend: notificationsDelayed(backend) },
  ]),
)('reads from memory stay fresh on $name', ({ name, backend }) => {
  const s = seededPlatform(backend);
  const read = async (path: string, user: string = USERS.owner) =>
    s.tp.call(path, { token: await s.tp.token(user, ['platform:read']) });
  const subscription = async () =>
    SubscriptionModel.parse(await json(await read(`/api/v1/subscriptions/${SUB_A}`)));
  /** The caller's list of subscriptions, by guid: display name. */
  const listed = async (user: string = USERS.owner) =>
    Object.fromEntries(
      z
        .array(z.object({ guid: z.string(), displayName: z.string().nullish() }))
        .parse(await json(await read('/api/v1/subscriptions', user)))
        .map((sub) => [sub.guid, sub.displayName]),
    );
  const renderTotal = async () =>
    z
      .array(SubscriptionRendersModel)
      .parse(await json(await read(`/api/v1/subscriptions/${SUB_A}/renders?groupBy=year`)))
      .reduce((sum, group) => sum + group.totalRenders, 0);
  const write = async (path: string, body: unknown, method: string, roles: string[]) => {
    const response = await s.tp.call(path, {
      method,
      token: await s.tp.token(USERS.owner, roles),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  };

  it("shows a batch of render events in the client's very next read", async () => {
    // Read twice: the second answer comes from memory.
    await subscription();
    const before = await subscription();
    const totalBefore = await renderTotal();
    await renderTotal();
    const at = new Date().toISOString();
    await write(
      '/api/v1/render-events',
      [{ environmentGuid: ENV_PROD, kind: 'Pdf', watermarked: false, at, count: 7 }],
      'POST',
      ['platform:ingest'],
    );
    expect((await subscription()).usedRenders).toBe((before.usedRenders ?? 0) + 7);
    expect(await renderTotal()).toBe(totalBefore + 7);
  });

  it('applies an import at once, memberships included', async () => {
    expect((await read(`/api/v1/subscriptions/${SUB_A}`, USERS.member)).status).toBe(200);
    // The lists too, read twice so that the second comes from memory.
    await listed(USERS.member);
    expect(Object.keys(await listed(USERS.member))).toContain(SUB_A);
    await listed();
    const file = fixture(s.now);
    file.subscriptions = file.subscriptions.map((sub) =>
      sub.guid === SUB_A
        ? {
            ...sub,
            displayName: 'Acme (renamed)',
            members: sub.members.filter((member) => member.userId !== USERS.member),
          }
        : sub,
    ) as typeof file.subscriptions;
    file.renderEvents = [];
    await write('/api/v1/imports', file, 'POST', ['platform:read', 'platform:write', 'platform:admin']);
    expect((await subscription()).displayName).toBe('Acme (renamed)');
    expect((await read(`/api/v1/subscriptions/${SUB_A}`, USERS.member)).status).toBe(404);
    expect((await listed())[SUB_A]).toBe('Acme (renamed)');
    expect(Object.keys(await listed(USERS.member))).not.toContain(SUB_A);
  });

  it.skipIf(name.endsWith('delayed'))(
    'shows a write made past the API (another replica, SQL) within moments',
    async () => {
      await subscription();
      await subscription();
      await listed();
      await listed();
      // On PostgreSQL a connection of its own, as another replica would have; PGlite has only the one handle.
      const other = s.tp.database.databaseUrl
        ? await openDatabase({ databaseUrl: s.tp.database.databaseUrl, dataDir: s.tp.database.dataDir })
        : s.tp.database;
      try {
        await other.db.execute(
          sql`update subscriptions set display_name = 'Changed by SQL' where guid = ${SUB_A}`,
        );
      } finally {
        if (other !== s.tp.database) await other.close();
      }
      const deadline = Date.now() + 5000;
      let seen = '';
      while (Date.now() < deadline) {
        seen = (await subscription()).displayName ?? '';
        if (seen === 'Changed by SQL') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(seen).toBe('Changed by SQL');
      // The list, kept in memory as well, follows the same notification.
      expect((await listed())[SUB_A]).toBe('Changed by SQL');
    },
  );
});
