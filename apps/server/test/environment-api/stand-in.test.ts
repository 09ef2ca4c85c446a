import { once } from 'node:events';
import { createServer } from 'node:net';
import { DEMO_OWNER_ID } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveWithKey } from '../../src/stand-in/credentials.ts';
import { standInOf } from '../../src/stand-in/stand-in.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { runCommand } from '../support/rotation-world.ts';
import { startServerChild } from '../support/server-child.ts';

type Connector = { id: string; name: string; type: string; allowedDomains: string[] };

/**
 * A development server (its own issuer, demo data) serves the stand-in API and publishes the demo connectors with
 * their authorization; the proxy reaches exactly that origin's /dev/stand-in/ although private networks are off.
 */
describe.each(await testBackends())('stand-in API and demo connectors on $name', (backend) => {
  let tp: TestPlatform;
  let token: string;
  let connectors: Connector[];
  const proxied = (connector: Connector | undefined, url: string, source = 'browser') =>
    tp.call(`/grafx/api/v1/environment/acme-prod/connectors/${connector?.id}/proxy`, {
      token,
      headers: {
        'x-grafx-proxy-external-url': url,
        'x-grafx-proxy-external-authentication-source': source,
      },
    });
  const standIn = () => `${tp.url}/dev/stand-in`;

  beforeAll(async () => {
    tp = await startTestPlatform(backend, {
      AUTH_ISSUER: '',
      // The development issuer with DATABASE_URL only when asked for by name (docs/configuration.md).
      DEV_ISSUER: 'true',
      DEMO_DATA: 'true',
      PROXY_ALLOW_PRIVATE_NETWORKS: 'false',
    });
    token = await tp.platform.devIssuer!.mint({
      sub: DEMO_OWNER_ID,
      roles: ['platform:read', 'platform:write', 'connector:server'],
      ttlSeconds: 600,
    });
    const listed = await tp.call('/grafx/api/v1/environment/acme-prod/connectors', { token });
    connectors = ((await listed.json()) as { data: Connector[] }).data;
  }, 60_000);
  afterAll(() => tp?.close());

  const media = () => connectors.find((c) => c.name.startsWith('Stand-in media'));
  const data = () => connectors.find((c) => c.name.startsWith('Stand-in data'));

  it('publishes both demo connectors with both usages authorized', async () => {
    expect(media()?.type).toBe('media');
    expect(data()?.type).toBe('data');
    for (const connector of [media(), data()]) {
      const auth = await tp.call(`/grafx/api/v1/environment/acme-prod/connectors/${connector?.id}/auth`, {
        token,
      });
      const usages = ((await auth.json()) as { usage: string }[]).map((a) => a.usage).sort();
      expect(usages).toEqual(['browser', 'server']);
    }
  });

  it("GET .../script answers the published module and options a browser runs (the console's Try it)", async () => {
    const answer = await tp.call(`/grafx/api/v1/environment/acme-prod/connectors/${media()?.id}/script`, {
      token,
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { type: string; options: { baseUrl: string }; script: string };
    expect(body.type).toBe('media');
    expect(body.options.baseUrl).toBe(standIn());
    expect(body.script).toContain('export');
    expect(body.script).not.toContain('@chili-publish/studio-connectors');
    const missing = await tp.call(
      '/grafx/api/v1/environment/acme-prod/connectors/00000000-0000-4000-8000-000000000000/script',
      { token },
    );
    expect(missing.status).toBe(404);
    expect(
      (await tp.call(`/grafx/api/v1/environment/acme-prod/connectors/${media()?.id}/script`)).status,
    ).toBe(401);
  });

  it('media: the proxy gets a client-credentials token from the stand-in and lists, describes and downloads', async () => {
    const page = await proxied(media(), `${standIn()}/media/assets?page=1&pageSize=3`);
    expect(page.status).toBe(200);
    const body = (await page.json()) as { total: number; items: { id: string }[] };
    expect(body.items).toHaveLength(3);
    expect(body.total).toBeGreaterThan(3);
    const detail = await proxied(media(), `${standIn()}/media/assets/photo-1`, 'server');
    expect(((await detail.json()) as { width: number }).width).toBe(640);
    const png = await proxied(media(), `${standIn()}/media/assets/photo-1/file?size=thumbnail`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = await proxied(media(), `${standIn()}/media/assets/logo-1/file?size=original`);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).toContain('<svg');
  });

  it('data: the static key is injected; pages follow the cursor', async () => {
    const first = (await (await proxied(data(), `${standIn()}/data/products?limit=10`)).json()) as {
      rows: { sku: string }[];
      nextCursor: string;
    };
    expect(first.rows).toHaveLength(10);
    const second = (await (
      await proxied(data(), `${standIn()}/data/products?limit=10&cursor=${first.nextCursor}`)
    ).json()) as { rows: { sku: string }[] };
    expect(second.rows[0]?.sku).toBe('P-011');
    const schema = await proxied(data(), `${standIn()}/data/schema`);
    expect(((await schema.json()) as { fields: unknown[] }).fields.length).toBeGreaterThan(0);
  });

  // Two demo connectors loaded cold and their first tokens fetched: a second alone, and under CI's two lanes, where the
  // runtime's workers run at a lower priority than the other lane's tests, it once took more than 30 s.
  it("the platform's run routes run the demo connectors against the stand-in", async () => {
    const run = (connector: Connector | undefined, path: string, body: object) =>
      tp.call(`/grafx/api/v1/environment/acme-prod/connectors/${connector?.id}/${path}`, {
        token,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const page = await run(media(), 'media/query', { usage: 'browser', query: { pageSize: 3 } });
    const pageBody = (await page.json()) as { data: { id: string }[] };
    expect(page.status, JSON.stringify(pageBody)).toBe(200);
    expect(pageBody.data).toHaveLength(3);
    // Studio's look-up by id: a search for the id, one item, that asset first.
    const lookUp = await run(media(), 'media/query', {
      usage: 'browser',
      query: { filter: ['photo-2'], pageSize: 1 },
    });
    const lookUpBody = (await lookUp.json()) as { data: { id: string }[] };
    expect(lookUp.status, JSON.stringify(lookUpBody)).toBe(200);
    expect(lookUpBody.data.map((item) => item.id)).toEqual(['photo-2']);
    const picture = await run(media(), 'media/download', {
      id: 'photo-1',
      previewType: 'thumbnail',
      intent: 'web',
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    const rows = await run(data(), 'data/page', { config: { limit: 5 } });
    const rowsBody = (await rows.json()) as { data: unknown[]; continuationToken: string };
    expect(rows.status, JSON.stringify(rowsBody)).toBe(200);
    expect(rowsBody).toMatchObject({ continuationToken: 'P-005' });
  }, 120_000);

  it('without the injected credentials the stand-in refuses', async () => {
    expect((await fetch(`${standIn()}/media/assets`)).status).toBe(401);
    expect((await fetch(`${standIn()}/data/products`)).status).toBe(401);
    const token = await fetch(`${standIn()}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=stand-in-media&client_secret=guess',
    });
    expect(token.status).toBe(401);
    expect(((await token.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('the exemption is that origin and path only: other loopback targets stay refused', async () => {
    expect((await proxied(media(), `${tp.url}/api/ping`)).status).toBe(403);
    expect((await proxied(media(), `${tp.url}/dev/stand-inx/media/assets`)).status).toBe(403);
    expect((await proxied(media(), `${tp.url}/dev/stand-in/../../api/ping`)).status).toBe(403);
    const port = new URL(tp.url).port;
    const otherPort = String((Number(port) % 60000) + 1);
    expect((await proxied(media(), `http://127.0.0.1:${otherPort}/dev/stand-in/media/assets`)).status).toBe(
      403,
    );
    expect((await proxied(media(), `http://localhost:${port}/dev/stand-in/media/assets`)).status).toBe(403);
  });
});

describe.each((await testBackends()).slice(0, 1))('a restart on another port on $name', (backend) => {
  it('points the demo connectors at the stand-in of the new address', async () => {
    const env = { AUTH_ISSUER: '', DEMO_DATA: 'true', PROXY_ALLOW_PRIVATE_NETWORKS: 'false' };
    const first = await startTestPlatform(backend, env);
    await first.platform.close();
    // The first address stays taken, so the second start is on another port for sure.
    const blocker = createServer().listen(Number(new URL(first.url).port), '127.0.0.1');
    await once(blocker, 'listening');
    const second = await startTestPlatform(backend, env, first.database);
    try {
      expect(second.url).not.toBe(first.url);
      const token = await second.platform.devIssuer!.mint({
        sub: DEMO_OWNER_ID,
        roles: ['platform:read'],
        ttlSeconds: 600,
      });
      const listed = await second.call('/grafx/api/v1/environment/acme-prod/connectors', { token });
      const media = ((await listed.json()) as { data: Connector[] }).data.find((c) =>
        c.name.startsWith('Stand-in media'),
      );
      const script = await second.call(`/grafx/api/v1/environment/acme-prod/connectors/${media?.id}/script`, {
        token,
      });
      expect(((await script.json()) as { options: { baseUrl: string } }).options.baseUrl).toBe(
        `${second.url}/dev/stand-in`,
      );
      const page = await second.call(`/grafx/api/v1/environment/acme-prod/connectors/${media?.id}/proxy`, {
        token,
        headers: { 'x-grafx-proxy-external-url': `${second.url}/dev/stand-in/media/assets?page=1` },
      });
      expect(page.status).toBe(200);
      expect(second.logs.join('')).toContain('demo connectors repointed');
    } finally {
      await second.close();
      await first.issuer.close();
      blocker.close();
    }
  }, 120_000);
});

describe.each(await testBackends())('a secrets key rotation on $name', (backend) => {
  it('leaves the demo connectors working: a new sealing key first, then the old one gone after rotate-secrets', async () => {
    const database = await backend.fresh();
    await database.detach();
    const keyOf = (fill: number) => Buffer.alloc(32, fill).toString('base64');
    const both = `new:${keyOf(2)},old:${keyOf(1)}`;
    const shared = {
      DATA_DIR: database.dataDir,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl, DEV_ISSUER: 'true' } : {}),
    };
    const command = async (args: string[], secretsKey: string) => {
      const run = runCommand(args, { ...shared, AUTH_ISSUER: '', SECRETS_KEY: secretsKey });
      expect(await run.exited, run.output()).toBe(0);
      return run.output();
    };
    /** `platform-server start` with demo data and the development issuer, as `npm start` runs it. */
    const start = (secretsKey: string) =>
      startServerChild({
        dataDir: database.dataDir,
        databaseUrl: database.databaseUrl,
        issuerUrl: '',
        env: { ...shared, DEMO_DATA: 'true', PROXY_ALLOW_PRIVATE_NETWORKS: 'false', SECRETS_KEY: secretsKey },
      });
    /** The two demo connectors' first pages through the proxy, both usages: each answer's status. */
    const statuses = async (url: string, secretsKey: string) => {
      const token = (
        await command(
          ['token', '--sub', DEMO_OWNER_ID, '--roles', 'platform:read,connector:server'],
          secretsKey,
        )
      ).trim();
      const headers = { authorization: `Bearer ${token}` };
      const listed = await fetch(`${url}/grafx/api/v1/environment/acme-prod/connectors`, { headers });
      const demo = ((await listed.json()) as { data: Connector[] }).data.filter((c) =>
        c.name.startsWith('Stand-in'),
      );
      const answers: string[] = [];
      for (const connector of demo)
        for (const usage of ['browser', 'server']) {
          const path = connector.type === 'media' ? 'media/assets?page=1' : 'data/products';
          const answer = await fetch(
            `${url}/grafx/api/v1/environment/acme-prod/connectors/${connector.id}/proxy`,
            {
              headers: {
                ...headers,
                'x-grafx-proxy-external-url': `${url}/dev/stand-in/${path}`,
                'x-grafx-proxy-external-authentication-source': usage,
              },
            },
          );
          answers.push(`${connector.type} ${usage} ${answer.status}`);
        }
      return answers.sort();
    };
    const allOk = ['data browser 200', 'data server 200', 'media browser 200', 'media server 200'];
    try {
      for (const secretsKey of [`old:${keyOf(1)}`, both]) {
        // The operator's first step of a rotation: the new key first (it seals), the old one kept (it opens).
        const server = await start(secretsKey);
        try {
          expect(await statuses(server.url, secretsKey)).toEqual(allOk);
        } finally {
          await server.stop();
        }
      }
      // Then rotate-secrets re-seals every value under the new key, and the old one goes.
      await command(['rotate-secrets'], both);
      const server = await start(`new:${keyOf(2)}`);
      try {
        expect(await statuses(server.url, `new:${keyOf(2)}`)).toEqual(allOk);
      } finally {
        await server.stop();
      }
    } finally {
      await database.close();
    }
  }, 180_000);
});

describe('where the stand-in runs, and what it takes', () => {
  const key = Buffer.alloc(32, 1).toString('base64');
  const issuer = { deriveSecret: (label: string) => `derived-${label}` };
  it('only with the development issuer and demo data, never in production', () => {
    const dev = { host: '127.0.0.1', demoData: true, production: false };
    expect(standInOf(dev, issuer, 8080, [key])?.origin).toBe('http://127.0.0.1:8080');
    expect(standInOf({ ...dev, host: '0.0.0.0' }, issuer, 8080, [key])?.origin).toBe('http://127.0.0.1:8080');
    expect(standInOf({ ...dev, host: '::' }, issuer, 8080, [key])?.origin).toBe('http://[::1]:8080');
    expect(standInOf(dev, undefined, 8080, [key])).toBeUndefined();
    expect(standInOf({ ...dev, demoData: false }, issuer, 8080, [key])).toBeUndefined();
    expect(standInOf({ ...dev, production: true }, issuer, 8080, [key])).toBeUndefined();
  });

  it('takes the secrets it publishes and those earlier versions derived from a SECRETS_KEY key, nothing else', () => {
    const dev = { host: '127.0.0.1', demoData: true, production: false };
    const credentials = standInOf(dev, issuer, 8080, [key])!.credentials;
    const earlier = deriveWithKey(key);
    expect(credentials.clientSecret).toBe('derived-stand-in:client-secret');
    expect(credentials.takesClientSecret(credentials.clientSecret)).toBe(true);
    expect(credentials.takesClientSecret(earlier('client-secret'))).toBe(true);
    expect(credentials.takesApiKey(credentials.apiKey)).toBe(true);
    expect(credentials.takesApiKey(earlier('api-key'))).toBe(true);
    expect(credentials.takesApiKey(earlier('client-secret'))).toBe(false);
    expect(
      credentials.takesClientSecret(deriveWithKey(Buffer.alloc(32, 2).toString('base64'))('client-secret')),
    ).toBe(false);
    expect(credentials.takesClientSecret('')).toBe(false);
  });
});
