import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { connectorBody, connectorsPath, expectStatus, platformClient } from './support.ts';

const owner = { user: USERS.owner };

/**
 * The proxy keeps a connector's configuration for a second; every writer of the environment API drops it at once,
 * so the very next proxied call sees each change.
 */
describe.each(await testBackends())(
  'configuration changes reach the next proxied call on $name',
  (backend) => {
    let tp: TestPlatform;
    let target: Target;
    const client = platformClient(() => tp);

    beforeAll(async () => {
      tp = await startTestPlatform(backend);
      await importDataFile(tp.database, fixture(new Date()));
      target = await startTarget();
    });
    afterAll(async () => {
      await target.close();
      await tp.close();
    });

    it('after setting and deleting auth, shared headers, disabling and deleting the connector', async () => {
      const published = await client.rest<{ id: string }>('POST', connectorsPath, {
        ...owner,
        body: connectorBody(),
      });
      expectStatus(published, 201);
      const id = published.body.id;
      const call = () => client.proxy(id, { ...owner, url: `${target.url}/next` });

      expectStatus(await call(), 200);
      expect(target.last('/next')?.headers['x-key']).toBeUndefined();

      const auth = `${connectorsPath}/${id}/auth/static`;
      expectStatus(
        await client.rest('PUT', auth, {
          ...owner,
          body: { usage: 'browser', key: 'X-Key', value: 'v-one' },
        }),
        200,
      );
      expectStatus(await call(), 200);
      expect(target.last('/next')?.headers['x-key']).toBe('v-one');

      expectStatus(
        await client.rest('PUT', auth, {
          ...owner,
          body: { usage: 'browser', key: 'X-Key', value: 'v-two' },
        }),
        200,
      );
      expectStatus(await call(), 200);
      expect(target.last('/next')?.headers['x-key']).toBe('v-two');

      const shared = `${connectorsPath}/${id}/shared-headers`;
      expectStatus(
        await client.rest('PUT', shared, { ...owner, body: { headers: { 'X-Shared': 's-one' } } }),
        200,
      );
      expectStatus(await call(), 200);
      expect(target.last('/next')?.headers['x-shared']).toBe('s-one');

      expectStatus(await client.rest('DELETE', `${connectorsPath}/${id}/auth?authUsage=browser`, owner), 204);
      expectStatus(await call(), 200);
      expect(target.last('/next')?.headers['x-key']).toBeUndefined();

      expectStatus(
        await client.rest('PATCH', `${connectorsPath}/${id}`, { ...owner, body: { enabled: false } }),
        200,
      );
      expectStatus(await call(), 403);
      expectStatus(
        await client.rest('PATCH', `${connectorsPath}/${id}`, { ...owner, body: { enabled: true } }),
        200,
      );
      expectStatus(await call(), 200);

      expectStatus(await client.rest('DELETE', `${connectorsPath}/${id}`, owner), 204);
      expectStatus(await call(), 404);
    });
  },
);
