import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { connectorBody, connectorsPath, expectStatus, platformClient } from './support.ts';

const reader = { user: USERS.contentUser, roles: ['platform:read'] };

describe.each((await testBackends()).slice(0, 1))(
  'where credentials go, through the server on $name',
  (backend) => {
    let tp: TestPlatform;
    const { rest, proxy } = platformClient(() => tp);

    beforeAll(async () => {
      // PROXY_ALLOW_PRIVATE_NETWORKS lifts the rule (the last test): off here, as in production.
      tp = await startTestPlatform(backend, { PROXY_ALLOW_PRIVATE_NETWORKS: 'false' });
      await importDataFile(tp.database, fixture(new Date()));
    });
    afterAll(async () => {
      await tp?.close();
    });

    it('accepts allowedDomains entries with a port, and refuses ports that are none', async () => {
      const published = await rest<{ allowedDomains: string[] }>('POST', connectorsPath, {
        user: USERS.owner,
        body: connectorBody({ allowedDomains: ['api.weather.example:8443', '*.weather.example'] }),
      });
      expectStatus(published, 201);
      expect(published.body.allowedDomains).toEqual(['api.weather.example:8443', '*.weather.example']);
      const refused = await rest<{ errors: Record<string, string[]> }>('POST', connectorsPath, {
        user: USERS.owner,
        body: connectorBody({
          allowedDomains: ['a.example:0', 'a.example:70000', 'a.example:', 'a.example:80:80'],
        }),
      });
      expectStatus(refused, 400);
      expect(Object.keys(refused.body.errors).sort()).toEqual([
        'allowedDomains[0]',
        'allowedDomains[1]',
        'allowedDomains[2]',
        'allowedDomains[3]',
      ]);
    });

    it('refuses a reader who names http:// or another port of an allowed domain (403 naming the rule)', async () => {
      const published = await rest<{ id: string }>('POST', connectorsPath, {
        user: USERS.owner,
        body: connectorBody({ allowedDomains: ['api.weather.example'] }),
      });
      expectStatus(published, 201);
      const id = published.body.id;
      expectStatus(
        await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
          user: USERS.owner,
          body: { usage: 'browser', key: 'X-Key', value: 'static-value-never-in-clear' },
        }),
        200,
      );
      const clear = await proxy(id, { ...reader, url: 'http://api.weather.example:25/mail' });
      expectStatus(clear, 403);
      expect((clear.body as { detail: string }).detail).toContain('over https only');
      const port = await proxy(id, { ...reader, url: 'https://api.weather.example:25/mail' });
      expectStatus(port, 403);
      expect((port.body as { detail: string }).detail).toContain('port 25 of api.weather.example is not one');
    });

    it('lets credentials go over http to any port with PROXY_ALLOW_PRIVATE_NETWORKS, whatever names the host', async () => {
      const local = await startTestPlatform(backend);
      try {
        await importDataFile(local.database, fixture(new Date()));
        const client = platformClient(() => local);
        const published = await client.rest<{ id: string }>('POST', connectorsPath, {
          user: USERS.owner,
          body: connectorBody({ allowedDomains: ['mock-upstream.example'] }),
        });
        expectStatus(published, 201);
        const id = published.body.id;
        expectStatus(
          await client.rest('PUT', `${connectorsPath}/${id}/auth/static`, {
            user: USERS.owner,
            body: { usage: 'browser', key: 'X-Key', value: 'static-value-never-in-clear' },
          }),
          200,
        );
        // Not refused by the rule: the proxy goes on to look the name up (which fails here: no such host).
        const sent = await client.proxy(id, { ...reader, url: 'http://mock-upstream.example:8080/items' });
        expectStatus(sent, 502);
        expect((sent.body as { detail: string }).detail).toContain('could not be reached');
      } finally {
        await local.close();
      }
    });
  },
);
