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
      tp = await startTestPlatform(backend);
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
  },
);
