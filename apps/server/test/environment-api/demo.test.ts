import { seedEnvironmentDemo } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import { environmentApi, envPath } from './support.ts';

type Listed = { data: { name: string; tags?: { name: string }[] }[] };

describe.each((await testBackends()).slice(0, 1))('environment demo content on $name', (backend) => {
  const { s, call } = environmentApi(backend);
  const owner = { user: USERS.owner };

  // Each demo connector loads twice (capabilities run in the server usage, the browse in the browser usage: two
  // sessions). About a second alone; under CI's two lanes the runtime's workers, which run at a lower priority than
  // the other lane's tests, once took more than 30 s for them.
  it('gives empty environments demo connectors, templates and tags, once', async () => {
    // An environment with content of its own is left alone.
    await call('POST', `${envPath('acme-dev')}/tags`, { ...owner, body: { name: 'Mine' } });
    const seeded = await seedEnvironmentDemo(s.tp.database, new Date());
    expect(seeded).toBe(4);
    expect(await seedEnvironmentDemo(s.tp.database, new Date())).toBe(0);

    const connectors = await call<Listed>('GET', `${envPath('acme-prod')}/connectors`, owner);
    expect(connectors.body.data.length).toBeGreaterThan(0);
    const auth = await call<unknown[]>(
      'GET',
      `${envPath('acme-prod')}/connectors/${(connectors.body.data[0] as unknown as { id: string }).id}/auth`,
      owner,
    );
    expect(auth.body).toEqual([]);
    // Each demo connector is a whole connector: Try it (and Studio) asks its capabilities and browses it.
    for (const connector of connectors.body.data as unknown as { id: string; type: string }[]) {
      const path = `${envPath('acme-prod')}/connectors/${connector.id}`;
      expect((await call('GET', `${path}/capabilities`, owner)).status).toBe(200);
      const browse =
        connector.type === 'media'
          ? await call('POST', `${path}/media/query`, {
              ...owner,
              body: {
                usage: 'browser',
                query: { collection: '/', pageToken: '', pageSize: 15, filter: [''] },
              },
            })
          : await call('POST', `${path}/data/page`, {
              ...owner,
              body: { usage: 'browser', config: { limit: 50, continuationToken: null } },
            });
      expect(browse.status).toBe(200);
    }
    const templates = await call<Listed>('GET', `${envPath('acme-prod')}/templates`, owner);
    expect(templates.body.data.length).toBeGreaterThan(0);
    expect(templates.body.data.some((t) => (t.tags ?? []).length > 0)).toBe(true);
    const tags = await call<Listed>('GET', `${envPath('acme-prod')}/tags`, owner);
    expect(tags.body.data.length).toBeGreaterThan(0);

    const untouched = await call<Listed>('GET', `${envPath('acme-dev')}/tags`, owner);
    expect(untouched.body.data.map((t) => t.name)).toEqual(['Mine']);
    expect((await call<Listed>('GET', `${envPath('acme-dev')}/templates`, owner)).body.data).toEqual([]);
  }, 120_000);
});
