import type { ServerResponse } from 'node:http';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath, expectStatus, platformClient } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { modelConnector } from './connectors.ts';

/**
 * Sessions of the connector runtime, through the composed server: a warm instance per (connector version, usage,
 * caller), nothing of it seen by another caller or usage; calls of one session interleaved in its instance; a call's
 * fetches aborted when it ends; the host's bytes counted against the session's memory.
 */
const STATIC_KEY = 'server-only-key-7d1e';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BIG_IMAGE = Buffer.concat([PNG_HEAD, Buffer.alloc(52_000_000 - PNG_HEAD.length, 7)]);

type StandIn = Listening & {
  open: () => number;
  closedAfter: number[];
  served: string[];
  /** The `x-api-key` each request to /hang carried. */
  hangKeys: (string | undefined)[];
};

/**
 * The upstream: rows behind a key, a token for query, images, a slow path that never finishes its answer, one that
 * never begins it (/hang), a 52 MB image.
 */
const startStandIn = async (): Promise<StandIn> => {
  let open = 0;
  const closedAfter: number[] = [];
  const served: string[] = [];
  const hangKeys: (string | undefined)[] = [];
  const listening = await listen((req, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    served.push(url.pathname);
    if (url.pathname === '/secret') {
      if (req.headers['x-api-key'] !== STATIC_KEY) {
        res.writeHead(401).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ secret: 'server data' }));
      return;
    }
    if (url.pathname === '/search') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ token: 'session-token' }));
      return;
    }
    if (url.pathname.startsWith('/files/')) {
      if (url.searchParams.get('token') !== 'session-token') {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_HEAD);
      return;
    }
    if (url.pathname === '/slow' || url.pathname === '/hang') {
      open += 1;
      const since = performance.now();
      req.socket.once('close', () => {
        open -= 1;
        closedAfter.push(performance.now() - since);
      });
      if (url.pathname === '/hang') {
        hangKeys.push(req.headers['x-api-key'] as string | undefined);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      return;
    }
    if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(BIG_IMAGE.length) });
      res.end(BIG_IMAGE);
      return;
    }
    res.writeHead(404).end();
  });
  return { ...listening, open: () => open, closedAfter, served, hangKeys };
};

const memoConnector = `
let memo = null;
export default class Memo {
  constructor(runtime) { this.runtime = runtime; }
  async getModel(context) {
    if (context.fill) {
      const response = await this.runtime.fetch(this.runtime.options.base + '/secret');
      memo = response.status === 200 ? JSON.parse(response.text).secret : null;
      Object.prototype.polluted = context.fill;
    }
    return { properties: [], memo, polluted: ({}).polluted ?? null };
  }
  async getPage() { return { data: [], continuationToken: null }; }
}`;

/** Keepeek's shape: query learns a token and keeps it in this; downloads use it. */
const keepeekConnector = `
export default class Keepeek {
  constructor(runtime) { this.runtime = runtime; }
  async query(options) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/search');
    this.token = JSON.parse(response.text).token;
    return { pageSize: options.pageSize, data: [], links: { nextPage: '' } };
  }
  async detail(id) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
  async download(id) {
    if (!this.token) throw new ConnectorHttpError(409, 'query first');
    await sleep(30);
    const response = await this.runtime.fetch(this.runtime.options.base + '/files/' + id + '?token=' + this.token);
    if (!response.ok) throw new ConnectorHttpError(response.status, 'download failed');
    return response.arrayBuffer;
  }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: false }; }
}`;

/** Answers a download it made before from the pointer it kept: a pointer lives as long as its session. */
const cachingConnector = `
export default class Caching {
  constructor(runtime) { this.runtime = runtime; this.cache = {}; }
  async query(options) { return { pageSize: options.pageSize, data: [], links: { nextPage: '' } }; }
  async detail(id) { return { id, name: id, relativePath: '/', type: 0, metaData: {} }; }
  async download(id) {
    if (this.cache[id]) return this.cache[id];
    const response = await this.runtime.fetch(this.runtime.options.base + '/files/' + id + '?token=session-token');
    if (!response.ok) throw new ConnectorHttpError(response.status, 'download failed');
    this.cache[id] = response.arrayBuffer;
    return response.arrayBuffer;
  }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { query: true, detail: true, filtering: false }; }
}`;

describe.each(await testBackends())('connector sessions through the composed server on $name', (backend) => {
  let tp: TestPlatform;
  let standIn: StandIn;
  const { rest, tokenOf } = platformClient(() => tp);
  const serverCaller = { user: USERS.contentUser, roles: ['platform:read', 'connector:server'] };
  const browserCaller = { user: USERS.contentUser, roles: ['platform:read'] };
  const otherBrowserCaller = { user: USERS.envAdmin, roles: ['platform:read'] };

  const publish = async (script: string, type = 'data') => {
    const reply = await rest<{ id: string }>('POST', connectorsPath, {
      user: USERS.owner,
      body: connectorBody({ script, type, options: { base: standIn.url } }),
    });
    expectStatus(reply, 201);
    return reply.body.id;
  };

  const run = (
    id: string,
    path: string,
    body: Record<string, unknown>,
    caller: { user: string; roles: string[] },
  ) => rest<Record<string, unknown>>('POST', `${connectorsPath}/${id}/${path}`, { ...caller, body });

  beforeAll(async () => {
    tp = await startTestPlatform(backend, { RUNTIME_TIMEOUT_SECONDS: '10', RUNTIME_MEMORY_MB: '64' });
    await importDataFile(tp.database, fixture(new Date()));
    standIn = await startStandIn();
  });
  afterAll(async () => {
    await tp?.close();
    await standIn?.close();
  });

  it('never serves what a server-usage call kept in module globals to a browser-usage caller, nor a prototype change to another caller', async () => {
    const id = await publish(memoConnector);
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
        user: USERS.owner,
        body: { usage: 'server', key: 'X-Api-Key', value: STATIC_KEY },
      }),
      200,
    );
    const filled = await run(id, 'data/model', { context: { fill: 'by-server' } }, serverCaller);
    expectStatus(filled, 200);
    expect(filled.body).toMatchObject({ memo: 'server data', polluted: 'by-server' });
    // The same session keeps its instance warm: the memo is there for its next call.
    expect((await run(id, 'data/model', {}, serverCaller)).body).toMatchObject({ memo: 'server data' });
    // The same user with the browser usage is another session; another user another again.
    const browser = await run(id, 'data/model', { usage: 'browser' }, browserCaller);
    expectStatus(browser, 200);
    expect(browser.body).toMatchObject({ memo: null, polluted: null });
    const pollutes = await run(
      id,
      'data/model',
      { usage: 'browser', context: { fill: 'by-one' } },
      browserCaller,
    );
    expect(pollutes.body).toMatchObject({ memo: null, polluted: 'by-one' });
    const other = await run(id, 'data/model', { usage: 'browser' }, otherBrowserCaller);
    expect(other.body).toMatchObject({ memo: null, polluted: null });
  });

  it('serves the first call after a publish or republish from an instance loaded then, and every other caller from an instance of its own', async () => {
    const script = (mark: string) => `
const LOADED_AT = Date.now();
export default class Loaded {
  constructor(runtime) { this.runtime = runtime; this.calls = 0; }
  async getModel() { this.calls += 1; return { properties: [], loadedAt: LOADED_AT, calls: this.calls, mark: '${mark}' }; }
  async getPage() { return { data: [], continuationToken: null }; }
}`;
    const model = async (id: string, caller: { user: string; roles: string[] }) => {
      const calledAt = Date.now();
      const reply = await run(id, 'data/model', { usage: 'browser' }, caller);
      expectStatus(reply, 200);
      return { calledAt, ...(reply.body as { loadedAt: number; calls: number; mark: string }) };
    };
    const publishedAt = Date.now();
    const id = await publish(script('first'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Its instance was loaded at the publish, before the call was made: the call compiled nothing.
    const first = await model(id, browserCaller);
    expect(first.loadedAt).toBeGreaterThanOrEqual(publishedAt);
    expect(first.loadedAt).toBeLessThan(first.calledAt);
    expect(first.calls).toBe(1);
    // That instance is the first caller's session now: another caller gets one of its own, loaded for its call.
    const other = await model(id, otherBrowserCaller);
    expect(other.loadedAt).toBeGreaterThanOrEqual(other.calledAt);
    expect(other.calls).toBe(1);
    expect((await model(id, browserCaller)).calls).toBe(2);
    // A republish is a new version, loaded at once in the same way; the old version's sessions are not it.
    const republishedAt = Date.now();
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}`, {
        user: USERS.owner,
        body: connectorBody({ script: script('second'), type: 'data', options: { base: standIn.url } }),
      }),
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await model(id, browserCaller);
    expect(next).toMatchObject({ mark: 'second', calls: 1 });
    expect(next.loadedAt).toBeGreaterThanOrEqual(republishedAt);
    expect(next.loadedAt).toBeLessThan(next.calledAt);
  });

  it("keeps what a query left in this for six downloads running at once (Keepeek's shape)", async () => {
    const id = await publish(keepeekConnector, 'media');
    expectStatus(await run(id, 'media/query', { query: { pageSize: 5 } }, serverCaller), 200);
    const token = await tokenOf(serverCaller);
    const downloads = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        tp.call(`${connectorsPath}/${id}/media/download`, {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: `a${n}`, previewType: 'mediumres', intent: 'web' }),
        }),
      ),
    );
    expect(downloads.map((reply) => reply.status)).toEqual(Array(6).fill(200));
    for (const reply of downloads) expect(Buffer.from(await reply.arrayBuffer())).toEqual(PNG_HEAD);
  });

  it('lets a later call of the session answer a download with the pointer an earlier one answered', async () => {
    const id = await publish(cachingConnector, 'media');
    const token = await tokenOf(serverCaller);
    const fetched = standIn.served.filter((path) => path === '/files/cached').length;
    for (let n = 0; n < 2; n++) {
      const reply = await tp.call(`${connectorsPath}/${id}/media/download`, {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'cached', previewType: 'mediumres', intent: 'web' }),
      });
      expect(reply.status, await reply.clone().text()).toBe(200);
      expect(Buffer.from(await reply.arrayBuffer())).toEqual(PNG_HEAD);
    }
    // The second answer came from the pointer kept, not from another fetch.
    expect(standIn.served.filter((path) => path === '/files/cached').length - fetched).toBe(1);
  });

  it('ends a session whose call trips a limit: its other calls in flight answer 502 SESSION_ENDED', async () => {
    const id = await publish(
      modelConnector(
        'if (context.loop) { await sleep(100); for (;;) {} } await sleep(9500); return { properties: [] };',
      ),
    );
    const waiting = run(id, 'data/model', {}, serverCaller);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const looping = await run(id, 'data/model', { context: { loop: true } }, serverCaller);
    expectStatus(looping, 504);
    const ended = await waiting;
    expectStatus(ended, 502);
    expect(ended.body).toMatchObject({ code: 'SESSION_ENDED' });
  });

  it('aborts every fetch a call started when it ends: the upstream sees its connections closed at once', async () => {
    const id = await publish(
      modelConnector(`
        for (let i = 0; i < 100; i++) this.runtime.fetch(this.runtime.options.base + '/slow?i=' + i).catch(() => null);
        await sleep(300);
        return { properties: [] };`),
    );
    const before = standIn.closedAfter.length;
    const reply = await run(id, 'data/model', {}, serverCaller);
    expectStatus(reply, 200);
    const answeredAt = performance.now();
    while (standIn.open() > 0 && performance.now() - answeredAt < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(standIn.open()).toBe(0);
    expect(standIn.closedAfter.length - before).toBe(100);
    // Each was open for the call's 300 ms and little more: closed when the call ended, not at a time limit.
    expect(Math.max(...standIn.closedAfter.slice(before))).toBeLessThan(1_500);
    const activity = await rest<{ data: { fetches: Record<string, unknown>[] }[] }>(
      'GET',
      `${connectorsPath}/${id}/activity?limit=1`,
      browserCaller,
    );
    expect(activity.body.data[0]?.fetches).toHaveLength(100);
    expect(activity.body.data[0]?.fetches[0]).toMatchObject({
      aborted: true,
      requestSent: true,
      status: null,
    });
  });

  it('aborts a fetch still waiting for its answer when the call ends, and records that its request went out with the credentials', async () => {
    const id = await publish(
      modelConnector(`
        this.runtime.fetch(this.runtime.options.base + '/hang').catch(() => null);
        await sleep(300);
        throw new ConnectorHttpError(503, 'done early');`),
    );
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
        user: USERS.owner,
        body: { usage: 'server', key: 'X-Api-Key', value: STATIC_KEY },
      }),
      200,
    );
    const before = standIn.closedAfter.length;
    expectStatus(await run(id, 'data/model', {}, serverCaller), 502);
    const answeredAt = performance.now();
    while (standIn.closedAfter.length === before && performance.now() - answeredAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Closed when the call ended (after its 300 ms), not when the proxy's wait for an answer ran out.
    expect(standIn.closedAfter.slice(before)).toEqual([expect.any(Number)]);
    expect(standIn.closedAfter[before]).toBeLessThan(1_500);
    expect(standIn.hangKeys.at(-1)).toBe(STATIC_KEY);
    const activity = await rest<{ data: { fetches: Record<string, unknown>[] }[] }>(
      'GET',
      `${connectorsPath}/${id}/activity?limit=1`,
      browserCaller,
    );
    expect(activity.body.data[0]?.fetches).toEqual([
      expect.objectContaining({ aborted: true, requestSent: true, credentialsInjected: true, status: null }),
    ]);
  });

  it.each([
    [
      '20 fetched images of 52 MB',
      `const kept = [];
       for (let i = 0; i < 20; i++) kept.push((await this.runtime.fetch(this.runtime.options.base + '/big')).arrayBuffer);
       return { properties: [] };`,
    ],
    [
      'the same as data: URLs',
      `const url = 'data:image/png;base64,' + 'A'.repeat(20 * 1024 * 1024);
       const kept = [];
       for (let i = 0; i < 20; i++) kept.push((await this.runtime.fetch(url)).arrayBuffer);
       return { properties: [] };`,
    ],
  ])(
    'refuses %s in one call with MEMORY_LIMIT, the server staying in bounds',
    async (_what, body) => {
      const id = await publish(modelConnector(body));
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      const reply = await run(id, 'data/model', {}, serverCaller);
      clearInterval(sampler);
      expectStatus(reply, 502);
      expect(reply.body).toMatchObject({ code: 'MEMORY_LIMIT', limit: 'memory' });
      // 20 × 52 MB is 1 GB: what the host held stayed within a few session budgets (64 MiB each).
      expect(peak - before).toBeLessThan(600 * 1024 * 1024);
    },
    30_000,
  );

  it('answers a result nested 5,000 or 200,000 deep, and a data: content type no header can carry, at once with 502 naming the rule', async () => {
    const deep = await publish(
      modelConnector(
        'this.calls = (this.calls ?? 0) + 1; let value = this.calls; for (let i = 0; i < (context.depth ?? 0); i++) value = [value]; return value;',
      ),
    );
    // 200,000 levels once overflowed the stack of the sandbox's own serialization (STACK_LIMIT, the session ended).
    for (const depth of [5000, 200_000]) {
      const started = performance.now();
      const reply = await run(deep, 'data/model', { context: { depth } }, serverCaller);
      expectStatus(reply, 502);
      expect(reply.body).toMatchObject({
        code: 'CONNECTOR_ERROR',
        detail: expect.stringContaining('1000 levels'),
      });
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    // The session's instance carried on: its third call.
    expect((await run(deep, 'data/model', {}, serverCaller)).body).toBe(3);
    for (const type of ['text/html\\r\\nX-Evil: 1', 'image/\\u4e2d']) {
      const unsafe = await publish(
        keepeekConnector.replace(
          "if (!this.token) throw new ConnectorHttpError(409, 'query first');",
          `return (await this.runtime.fetch('data:${type};base64,PGI+')).arrayBuffer;`,
        ),
        'media',
      );
      const download = await run(
        unsafe,
        'media/download',
        { id: 'x', previewType: 'original', intent: 'web' },
        serverCaller,
      );
      expectStatus(download, 502);
      expect(download.body).toMatchObject({
        code: 'CONNECTOR_ERROR',
        detail: expect.stringContaining('header value'),
      });
    }
  });
});

describe.each(await testBackends())(
  'instances loaded at publish on $name, within the sessions bound',
  (backend) => {
    let tp: TestPlatform;
    const { rest } = platformClient(() => tp);
    const caller = { user: USERS.contentUser, roles: ['platform:read'] };
    beforeAll(async () => {
      // Sixteen sessions at most: a worker keeps two instances loaded at publish (an eighth).
      tp = await startTestPlatform(backend, { RUNTIME_MAX_SESSIONS: '16' });
      await importDataFile(tp.database, fixture(new Date()));
    });
    afterAll(async () => {
      await tp?.close();
    });

    it('keeps the newest versions published loaded, as many as an eighth of the sessions bound, and loads the older ones at their first call', async () => {
      const script = `
const LOADED_AT = Date.now();
export default class Loaded {
  constructor(runtime) { this.runtime = runtime; }
  async getModel() { return { properties: [], loadedAt: LOADED_AT }; }
  async getPage() { return { data: [], continuationToken: null }; }
}`;
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) {
        const reply = await rest<{ id: string }>('POST', connectorsPath, {
          user: USERS.owner,
          body: connectorBody({ script, type: 'data' }),
        });
        expectStatus(reply, 201);
        ids.push(reply.body.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      const loadedAt = async (id: string) => {
        const calledAt = Date.now();
        const reply = await rest<{ loadedAt: number }>('POST', `${connectorsPath}/${id}/data/model`, {
          ...caller,
          body: { usage: 'browser' },
        });
        expectStatus(reply, 200);
        return { calledAt, loadedAt: reply.body.loadedAt };
      };
      const newest = await loadedAt(ids[2]!);
      expect(newest.loadedAt).toBeLessThan(newest.calledAt);
      const oldest = await loadedAt(ids[0]!);
      expect(oldest.loadedAt).toBeGreaterThanOrEqual(oldest.calledAt);
    });
  },
);
