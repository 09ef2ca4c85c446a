import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { createPlatformClient } from '@platform/client';
import { type Oidc, oidcClients, startOidc } from '@platform/proxy/testing';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectorBody,
  connectorsPath,
  ENVIRONMENT,
  expectStatus,
  platformClient,
} from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { dataConnector, hostileConnectors, mediaConnector, notAModule } from './connectors.ts';

const STATIC_KEY = 'table-api-key-5f2c91';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const LATIN1_BYTES = Buffer.from([0x41, 0xe9, 0xff, 0xfe, 0x00, 0x42]);
const owner = { user: USERS.owner };
const server = { user: USERS.contentUser, roles: ['platform:read', 'connector:server'] };

type Seen = { path: string; headers: IncomingMessage['headers'] };

/** The stand-in of the DAM and of the table API: JSON pages, an image, rows behind a key. */
const startStandIn = async (): Promise<Listening & { seen: Seen[] }> => {
  const seen: Seen[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const listening = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    seen.push({ path: url.pathname + url.search, headers: req.headers });
    if (url.pathname === '/assets') {
      const page = Number(url.searchParams.get('page'));
      const items = [0, 1].map((i) => ({ id: `a${page * 2 + i}`, name: `Asset ${page * 2 + i}` }));
      return json(res, 200, { items, next: page === 0 ? 1 : null });
    }
    const asset = /^\/assets\/(a\d+)$/.exec(url.pathname);
    if (asset) {
      if (asset[1] === 'a404') return json(res, 404, { error: 'gone' });
      return json(res, 200, { id: asset[1], name: `Asset ${asset[1]}`, kind: 'photo', width: 640 });
    }
    if (url.pathname === '/files/latin1') {
      // Text whose bytes are not UTF-8, typed without a charset.
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(LATIN1_BYTES);
    }
    if (url.pathname.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG);
    }
    if (url.pathname === '/rows') {
      if (req.headers['x-api-key'] !== STATIC_KEY) return json(res, 401, { error: 'key' });
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const rows = Array.from({ length: Math.max(0, Math.min(limit, 5 - offset)) }, (_, i) => ({
        n: offset + i,
      }));
      return json(res, 200, { rows, next: offset + limit < 5 ? offset + limit : null });
    }
    if (url.pathname === '/model') return json(res, 200, { columns: ['n'] });
    if (url.pathname === '/moved') {
      res.writeHead(302, { location: '/model?from=moved' });
      return res.end();
    }
    json(res, 404, {});
  });
  return { ...listening, seen };
};

// On the embedded database only: what runs here is the runtime (sandbox, proxy, routes); the database only holds the
// published connectors, and every store test runs on both backends.
describe.each((await testBackends()).slice(0, 1))(
  'the connector runtime through the composed server on $name',
  (backend) => {
    let tp: TestPlatform;
    let standIn: Awaited<ReturnType<typeof startStandIn>>;
    let oidc: Oidc;
    const { rest, responses, tokenOf } = platformClient(() => tp);
    const run = (id: string, path: string, body?: unknown, caller = server) =>
      rest<Record<string, unknown>>(
        path === 'capabilities' ? 'GET' : 'POST',
        `${connectorsPath}/${id}/${path}`,
        {
          ...caller,
          ...(body === undefined ? {} : { body }),
        },
      );

    /** `media/download` as the raw HTTP answer: its bytes and headers, not JSON. */
    const downloadBytes = async (id: string, body: { id: string; previewType: string; intent: string }) =>
      tp.call(`${connectorsPath}/${id}/media/download`, {
        method: 'POST',
        token: await tokenOf(server),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const publish = async (script: string, overrides: Record<string, unknown> = {}): Promise<string> => {
      const reply = await rest<{ id: string }>('POST', connectorsPath, {
        ...owner,
        body: connectorBody({ script, options: { base: standIn.url }, ...overrides }),
      });
      expectStatus(reply, 201);
      return reply.body.id;
    };

    /** A published data connector whose calls carry the table API's key on `usage`. */
    const publishWithKey = async (usage: 'browser' | 'server'): Promise<string> => {
      const id = await publish(dataConnector);
      expectStatus(
        await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
          ...owner,
          body: { usage, key: 'X-Api-Key', value: STATIC_KEY },
        }),
        200,
      );
      return id;
    };

    beforeAll(async () => {
      tp = await startTestPlatform(backend, { RUNTIME_TIMEOUT_SECONDS: '1', RUNTIME_MEMORY_MB: '32' });
      await importDataFile(tp.database, fixture(new Date()));
      standIn = await startStandIn();
      oidc = await startOidc([], 'client_secret_basic');
    });
    afterAll(async () => {
      await tp?.close();
      await Promise.all([standIn?.close(), oidc?.close()]);
    });

    it('a media connector on client credentials: capabilities, query pages, detail and a binary download', async () => {
      const id = await publish(mediaConnector, { type: 'media' });
      expectStatus(
        await rest('PUT', `${connectorsPath}/${id}/auth/oauth-client-credentials`, {
          ...owner,
          body: {
            usage: 'server',
            clientId: oidcClients.clientCredentials.id,
            clientSecret: oidcClients.clientCredentials.secret,
            scope: 'api',
            tokenEndpoint: oidc.tokenEndpoint,
          },
        }),
        200,
      );
      const capabilities = await run(id, 'capabilities');
      expectStatus(capabilities, 200);
      expect(capabilities.body).toMatchObject({
        type: 'media',
        capabilities: { query: true, detail: true, filtering: true },
        configurationOptions: [{ name: 'base', displayName: 'API base', type: 'text' }],
      });

      const first = await run(id, 'media/query', { query: { pageSize: 2, filter: ['cats'] } });
      expectStatus(first, 200);
      expect(first.body).toMatchObject({
        pageSize: 2,
        data: [{ id: 'a0' }, { id: 'a1' }],
        links: { nextPage: '1' },
      });
      const second = await run(id, 'media/query', { query: { pageSize: 2, pageToken: '1' } });
      expect(second.body).toMatchObject({ data: [{ id: 'a2' }, { id: 'a3' }], links: { nextPage: '' } });
      const token = oidc.issued.at(-1);
      expect(standIn.seen.find((s) => s.path.startsWith('/assets?page=0'))?.headers.authorization).toBe(
        `Bearer ${token}`,
      );

      const detail = await run(id, 'media/detail', { id: 'a7' });
      expect(detail.body).toMatchObject({ id: 'a7', metaData: { kind: 'photo' }, width: 640 });
      const missing = await run(id, 'media/detail', { id: 'a404' });
      expectStatus(missing, 502);
      expect(missing.body).toMatchObject({ code: 'CONNECTOR_HTTP_ERROR', connectorStatus: 404 });

      const download = await downloadBytes(id, { id: 'a1', previewType: 'thumbnail', intent: 'web' });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('image/png');
      // The upstream's bytes under the platform's origin carry what a proxied response carries.
      expect(download.headers.get('content-security-policy')).toBe('sandbox');
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
      expect(standIn.seen.at(-1)?.headers['user-agent']).toBe('dam-connector/1.0');

      const activity = await rest<{
        data: { method: string; status: number; fetches: Record<string, unknown>[] }[];
      }>('GET', `${connectorsPath}/${id}/activity?limit=3`, {
        user: USERS.contentUser,
        roles: ['platform:read'],
      });
      expectStatus(activity, 200);
      expect(activity.body.data.map((entry) => [entry.method, entry.status])).toEqual([
        ['download', 200],
        ['detail', 502],
        ['detail', 200],
      ]);
      expect(activity.body.data[0]?.fetches).toEqual([
        expect.objectContaining({
          method: 'GET',
          url: `${standIn.url}/files/a1?size=`,
          status: 200,
          bytes: PNG.length,
          credentialsInjected: true,
        }),
      ]);
      expect(responses.join('\n')).not.toContain(token);
      expect(responses.join('\n')).not.toContain(oidcClients.clientCredentials.secret);
      // The upstream's content type exactly: no charset added to a text type whose bytes are not UTF-8.
      const text = await downloadBytes(id, { id: 'latin1', previewType: 'original', intent: 'print' });
      expect(text.status).toBe(200);
      expect(text.headers.get('content-type')).toBe('text/plain');
      expect(Buffer.from(await text.arrayBuffer())).toEqual(LATIN1_BYTES);
    });

    it("records a failed token request in the activity with the provider's answer", async () => {
      const id = await publish(mediaConnector, { type: 'media' });
      expectStatus(
        await rest('PUT', `${connectorsPath}/${id}/auth/oauth-client-credentials`, {
          ...owner,
          body: {
            usage: 'server',
            clientId: oidcClients.clientCredentials.id,
            clientSecret: 'not-the-secret-81f3',
            tokenEndpoint: oidc.tokenEndpoint,
          },
        }),
        200,
      );
      const reply = await run(id, 'media/query', { query: { pageSize: 2 } });
      expectStatus(reply, 502);
      expect(reply.body).toMatchObject({ code: 'CONNECTOR_ERROR' });
      const activity = await rest<{ data: { fetches: { error?: string; status: number | null }[] }[] }>(
        'GET',
        `${connectorsPath}/${id}/activity`,
        { user: USERS.contentUser, roles: ['platform:read'] },
      );
      expect(activity.body.data[0]?.fetches[0]).toMatchObject({
        status: null,
        // oidc-provider refuses the secret with a Basic challenge and names the OAuth error in its JSON body.
        error: expect.stringMatching(
          /^The token endpoint .* refused the client: HTTP 401 with a basic challenge, OAuth error "invalid_client"\.$/,
        ),
      });
      expect(activity.text).not.toContain('not-the-secret-81f3');
    });

    it('a data connector on a static key, through the tRPC client: pages and a model', async () => {
      const id = await publishWithKey('browser');
      const token = await tokenOf({ user: USERS.contentUser, roles: ['platform:read'] });
      const client = createPlatformClient(tp.url, () => token);
      const input = { environment: ENVIRONMENT, connectorId: id };
      const first = await client.connectorRuntime.dataPage.mutate({
        ...input,
        body: { usage: 'browser', config: { limit: 3 } },
      });
      expect(first).toEqual({ data: [{ n: 0 }, { n: 1 }, { n: 2 }], continuationToken: '3' });
      const second = await client.connectorRuntime.dataPage.mutate({
        ...input,
        body: { usage: 'browser', config: { limit: 3, continuationToken: '3' } },
      });
      expect(second).toEqual({ data: [{ n: 3 }, { n: 4 }], continuationToken: null });
      expect(
        await client.connectorRuntime.dataModel.mutate({ ...input, body: { usage: 'browser' } }),
      ).toEqual({
        properties: [{ name: 'n', type: 'singleLine' }],
      });
      // The server usage has no authorization configured and needs the role; the browser one was used above.
      const refused = await client.connectorRuntime.dataModel
        .mutate({ ...input, body: {} })
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ data: { httpStatus: 403 } });
      const wrongType = await run(id, 'media/query', { query: {} });
      expectStatus(wrongType, 400);
      expect(wrongType.body).toMatchObject({ code: 'METHOD_MISSING' });
    });

    it('refuses a run body with an unknown field or without its required part, naming the field', async () => {
      const id = await publishWithKey('server');
      const cases: [string, Record<string, unknown>, string][] = [
        ['data/page', { config: { limit: 1 }, bogus: 2 }, 'bogus'],
        ['data/page', { config: { limit: 1, bogusConfig: 1 } }, 'config.bogusConfig'],
        ['data/model', { bogus: 2 }, 'bogus'],
        ['media/query', { usage: 'browser' }, 'query'],
        ['media/query', { query: { pageSize: 1, bogusQuery: 1 } }, 'query.bogusQuery'],
        ['media/detail', { id: 'x', bogus: 1 }, 'bogus'],
      ];
      for (const [path, body, field] of cases) {
        const reply = await run(id, path, body);
        expectStatus(reply, 400);
        expect(Object.keys((reply.body as { errors: object }).errors), path).toEqual([field]);
      }
      // data/model's body is all optional: a POST without any body runs it with none; one that needs a part does not.
      expectStatus(await run(id, 'data/model'), 200);
      // tRPC too, where no `body` key is how none is sent.
      const viaTrpc = await tp.call('/trpc/connectorRuntime.dataModel', {
        method: 'POST',
        token: await tokenOf(server),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ environment: 'acme-prod', connectorId: id }),
      });
      expect(viaTrpc.status, await viaTrpc.clone().text()).toBe(200);
      const needsConfig = await run(id, 'data/page');
      expectStatus(needsConfig, 400);
      expect((needsConfig.body as { errors: object }).errors).toEqual({ body: ['required'] });
    });

    it('refuses a script that is not a module at publish and republish (422), runs nothing of a disabled one (409)', async () => {
      const refused = await rest('POST', connectorsPath, {
        ...owner,
        body: connectorBody({ script: notAModule }),
      });
      expectStatus(refused, 422);
      expect(refused.body).toMatchObject({ code: 'NO_DEFAULT_CLASS' });
      const id = await publish(dataConnector);
      const republished = await rest('PUT', `${connectorsPath}/${id}`, {
        ...owner,
        body: connectorBody({ script: 'export default class {' }),
      });
      expectStatus(republished, 422);
      expect(republished.body).toMatchObject({ code: 'SCRIPT_INVALID' });
      // A script that never finishes loading does not load either: 422 within the time limit, not a stuck worker.
      for (const script of [
        'while (true) {}\nexport default class C {}',
        'export default class C { constructor() { for (;;) {} } }',
      ]) {
        const looping = await rest('PUT', `${connectorsPath}/${id}`, {
          ...owner,
          body: connectorBody({ script }),
        });
        expectStatus(looping, 422);
        expect(looping.body).toMatchObject({ code: 'SCRIPT_INVALID' });
      }
      expectStatus(
        await rest('PATCH', `${connectorsPath}/${id}`, { ...owner, body: { enabled: false } }),
        200,
      );
      const disabled = await run(id, 'data/model', {});
      expectStatus(disabled, 409);
      expect(disabled.body).toMatchObject({ code: 'CONNECTOR_DISABLED' });
    });

    it('stops hostile connectors with the limit they hit; the server and the next invocation carry on', async () => {
      const healthy = await publishWithKey('server');
      const expectations: [keyof typeof hostileConnectors, number, Record<string, unknown>][] = [
        ['endlessLoop', 504, { code: 'TIME_LIMIT' }],
        ['memoryBomb', 502, { code: 'MEMORY_LIMIT', limit: 'memory' }],
        ['deepRecursion', 502, { code: 'STACK_LIMIT', limit: 'stack' }],
        ['manyFetches', 502, { code: 'FETCH_LIMIT', limit: 'fetch count' }],
        [
          'disallowedHost',
          502,
          { code: 'FETCH_REFUSED', detail: expect.stringContaining('not-allowed.example') },
        ],
      ];
      for (const [name, status, members] of expectations) {
        const id = await publish(hostileConnectors[name]);
        const reply = await run(id, 'data/model', {});
        expect(reply.status, `${name}: ${reply.text}`).toBe(status);
        expect(reply.body).toMatchObject(members);
        expectStatus(await run(healthy, 'data/page', { config: { limit: 2 } }), 200);
      }
      const own = await publish(hostileConnectors.ownAuthorization);
      expectStatus(await run(own, 'data/model', {}), 200);
      expect(standIn.seen.at(-1)?.headers.authorization).toBeUndefined();
    });

    it("tells the connector where a followed redirect led, as Fetch's redirected and url do", async () => {
      const id = await publish(hostileConnectors.followsRedirect);
      const reply = await run(id, 'data/model', {});
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ status: 200, redirected: true, url: `${standIn.url}/model?from=moved` });
      const direct = await publish(hostileConnectors.ownAuthorization);
      expectStatus(await run(direct, 'data/model', {}), 200);
    });

    it('answers /api/ping while four connectors loop until their deadline', async () => {
      const looping = await Promise.all([1, 2, 3, 4].map(() => publish(hostileConnectors.endlessLoop)));
      const runs = Promise.all(looping.map((id) => run(id, 'data/model', {})));
      const pings: number[] = [];
      const until = Date.now() + 800;
      while (Date.now() < until) {
        const started = performance.now();
        const ping = await tp.call('/api/ping');
        expect(ping.status).toBe(200);
        pings.push(performance.now() - started);
      }
      for (const reply of await runs) expectStatus(reply, 504);
      expect(pings.length).toBeGreaterThan(5);
      expect(Math.max(...pings)).toBeLessThan(500);
    });

    it('publishes and runs a connector while other processes keep every core busy', async () => {
      // At the lowest priority (nice 19) the runtime's workers got next to no CPU beside busy processes of normal
      // priority: every check and invocation failed, the worker taken for stuck after a deadline plus 5 s.
      const hogs = Array.from({ length: availableParallelism() + 1 }, () =>
        spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
      );
      try {
        const id = await publishWithKey('server');
        const page = await run(id, 'data/page', { config: { limit: 2 } });
        expectStatus(page, 200);
        expect(page.body).toMatchObject({ data: [{ n: 0 }, { n: 1 }] });
      } finally {
        for (const hog of hogs) hog.kill('SIGKILL');
      }
    });
  },
);
