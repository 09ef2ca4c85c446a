import type { SecretBox } from '@platform/store';
import { schema } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertConnector, newSecrets, seedEnvironment, setAuth } from './support/database.ts';
import { startProxy } from './support/harness.ts';
import { startTarget, type Target } from './support/servers.ts';

const backends = await testBackends();

/** What the target saw as X-Api-Key on the last call. */
const lastKey = (target: Target) => target.requests.at(-1)?.headers['x-api-key'];

describe.each(backends)('connector configuration cache on $name', (backend) => {
  let database: TestDatabase;
  let secrets: SecretBox;
  let target: Target;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    target = await startTarget();
    closers.push(
      () => target.close(),
      () => database.close(),
    );
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const staticKey = (id: string, value: string) =>
    setAuth(database, secrets, id, 'browser', 'staticKey', { key: 'X-Api-Key', value });
  const setShared = async (id: string, headers: Record<string, string>) => {
    const sealed = secrets.seal(JSON.stringify(headers));
    const t = schema.connectorSharedHeaders;
    await database.db
      .insert(t)
      .values({ connectorId: id, headers: sealed, updatedAt: new Date() })
      .onConflictDoUpdate({ target: t.connectorId, set: { headers: sealed } });
  };

  it('keeps a connector configuration for configCacheMs; invalidateConnector makes the next call read it', async () => {
    const harness = await startProxy(database, secrets, { configCacheMs: 60_000 });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await staticKey(id, 'key-one');
    expect((await harness.call(id, { url: `${target.url}/a` })).status).toBe(200);
    expect(lastKey(target)).toBe('key-one');

    await staticKey(id, 'key-two');
    await harness.call(id, { url: `${target.url}/a` });
    expect(lastKey(target)).toBe('key-one'); // cached, as configured

    harness.proxy.invalidateConnector(id.toUpperCase()); // ids compare case-insensitively
    await harness.call(id, { url: `${target.url}/a` });
    expect(lastKey(target)).toBe('key-two');

    await database.db.update(schema.connectors).set({ enabled: false }).where(eq(schema.connectors.id, id));
    harness.proxy.invalidateConnector(id);
    expect((await harness.call(id, { url: `${target.url}/a` })).status).toBe(403);

    await database.db.delete(schema.connectors).where(eq(schema.connectors.id, id));
    harness.proxy.invalidateConnector(id);
    expect((await harness.call(id, { url: `${target.url}/a` })).status).toBe(404);
  });

  it('invalidation covers both usages and shared headers, and leaves other connectors cached', async () => {
    const harness = await startProxy(database, secrets, { configCacheMs: 60_000 });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    const other = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, id, 'server', 'staticKey', { key: 'X-Api-Key', value: 'server-one' });
    await staticKey(other, 'other-one');
    const server = {
      url: `${target.url}/s`,
      usage: 'server' as const,
      roles: ['platform:read', 'connector:server'],
    };
    await harness.call(id, server);
    await harness.call(other, { url: `${target.url}/o` });

    await setAuth(database, secrets, id, 'server', 'staticKey', { key: 'X-Api-Key', value: 'server-two' });
    await setShared(id, { 'X-Tenant': 'acme' });
    await staticKey(other, 'other-two');
    harness.proxy.invalidateConnector(id);

    await harness.call(id, server);
    expect(lastKey(target)).toBe('server-two');
    expect(target.requests.at(-1)?.headers['x-tenant']).toBe('acme');
    await harness.call(other, { url: `${target.url}/o` });
    expect(lastKey(target)).toBe('other-one');
  });

  it('a call that started reading before an invalidation does not put its stale result in the cache', async () => {
    const harness = await startProxy(database, secrets, { configCacheMs: 60_000 });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await staticKey(id, 'key-one');
    const first = harness.call(id, { url: `${target.url}/a` }); // reads the store; not awaited yet
    await new Promise((resolve) => setImmediate(resolve));
    await staticKey(id, 'key-two');
    harness.proxy.invalidateConnector(id);
    await first;
    await harness.call(id, { url: `${target.url}/a` });
    expect(lastKey(target)).toBe('key-two');
  });

  it('with configCacheMs 0 every call sees the stored configuration, secrets re-opened only when changed', async () => {
    const harness = await startProxy(database, secrets, { configCacheMs: 0 });
    closers.push(() => harness.close());
    const id = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await staticKey(id, 'key-one');
    await setShared(id, { 'X-Tenant': 'one' });
    await harness.call(id, { url: `${target.url}/a` });
    expect(lastKey(target)).toBe('key-one');
    await staticKey(id, 'key-two');
    await harness.call(id, { url: `${target.url}/a` });
    expect(lastKey(target)).toBe('key-two');
    await setShared(id, { 'X-Tenant': 'two' });
    await harness.call(id, { url: `${target.url}/a` });
    expect(target.requests.at(-1)?.headers['x-tenant']).toBe('two');
    await database.db
      .update(schema.connectors)
      .set({ allowedDomains: ['example.com'] })
      .where(eq(schema.connectors.id, id));
    expect((await harness.call(id, { url: `${target.url}/a` })).status).toBe(403);
  });
});
