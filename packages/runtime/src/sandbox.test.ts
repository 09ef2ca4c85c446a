import { describe, expect, it } from 'vitest';
import {
  checkScript,
  type FetchRecord,
  type HostFetch,
  type HostFetchRequest,
  type HostFetchResponse,
  keepEngineReady,
  loadConnector,
  RuntimeError,
} from './index.ts';

const json = (value: unknown, contentType = 'application/json'): HostFetchResponse => ({
  status: 200,
  statusText: 'OK',
  url: 'https://api.example.test/',
  redirected: false,
  headers: { 'Content-Type': contentType } as Record<string, string>,
  body: new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)),
});

/** A port that records what reached it and answers with `answer`. */
const port = (answer: (request: HostFetchRequest) => HostFetchResponse = () => json({ ok: true })) => {
  const seen: HostFetchRequest[] = [];
  const fetch: HostFetch = async (request) => {
    seen.push(request);
    return answer(request);
  };
  return { seen, fetch };
};

const connector = (body: string) => `export default class Connector {
  constructor(runtime) { this.runtime = runtime; }
  ${body}
}`;

const load = (script: string, fetch: HostFetch = port().fetch, limits = {}) =>
  loadConnector({ script, options: { base: 'https://api.example.test' }, platform: 'server', fetch, limits });

const failure = async (promise: Promise<unknown>): Promise<RuntimeError> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof RuntimeError)) throw new Error(`expected a RuntimeError, got ${String(error)}`);
  return error;
};

describe('a connector in the sandbox', () => {
  it('is built with the runtime object and answers a call with JSON', async () => {
    const sandbox = await load(
      connector(`getCapabilities() {
        return { platform: this.runtime.platform, sdk: typeof this.runtime.sdkVersion, base: this.runtime.options.base };
      }`),
    );
    expect(await sandbox.call('getCapabilities', [])).toEqual({
      kind: 'json',
      value: { platform: 'server', sdk: 'string', base: 'https://api.example.test' },
    });
    sandbox.dispose();
  });

  it('lays the call options over the published ones for that call only', async () => {
    const sandbox = await load(connector('getModel() { return { ...this.runtime.options }; }'));
    expect((await sandbox.call('getModel', [{}], { extra: 'x', base: 'y' })).kind === 'json').toBe(true);
    expect(await sandbox.call('getModel', [{}], { extra: 'x', base: 'y' })).toEqual({
      kind: 'json',
      value: { base: 'y', extra: 'x' },
    });
    expect(await sandbox.call('getModel', [{}])).toEqual({
      kind: 'json',
      value: { base: 'https://api.example.test' },
    });
    sandbox.dispose();
  });

  it('hands the constructor the published options (connectors read their base URL there)', async () => {
    const sandbox = await load(`export default class Connector {
      constructor(runtime) { this.base = runtime.options.base; this.seen = { ...runtime.options }; }
      getModel() { return { base: this.base, seen: this.seen }; }
    }`);
    expect(await sandbox.call('getModel', [{}], { extra: 'x' })).toEqual({
      kind: 'json',
      value: { base: 'https://api.example.test', seen: { base: 'https://api.example.test' } },
    });
    sandbox.dispose();
  });

  it('sees the SDK globals and no host objects', async () => {
    const sandbox = await load(
      connector(`getModel() {
        return [typeof ConnectorHttpError, typeof sleep, typeof StudioFormData, typeof FilePointer,
          typeof console, typeof window, typeof setTimeout, typeof process, typeof require, typeof fetch];
      }`),
    );
    expect(await sandbox.call('getModel', [{}])).toEqual({
      kind: 'json',
      value: ['function', 'function', 'function', 'function', ...Array(6).fill('undefined')],
    });
    sandbox.dispose();
  });

  it('fetches through the port without its own Authorization header and shapes the response', async () => {
    const upstream = port(() => json({ items: [1, 2] }));
    const sandbox = await load(
      connector(`async query(options, context) {
        const response = await this.runtime.fetch(this.runtime.options.base + '/items?q=' + options.filter[0], {
          method: 'post', headers: { Authorization: 'Bearer mine', 'X-GraFx-Proxy-User-Agent': 'ua/1' }, body: 'b',
        });
        return { ok: response.ok, status: response.status, type: response.headers['content-type'],
          data: JSON.parse(response.text), pointer: typeof response.arrayBuffer.id, bytes: response.arrayBuffer.bytes };
      }`),
      upstream.fetch,
    );
    const result = await sandbox.call('query', [{ filter: ['cats'] }, {}]);
    expect(result).toEqual({
      kind: 'json',
      value: {
        ok: true,
        status: 200,
        type: 'application/json',
        data: { items: [1, 2] },
        pointer: 'string',
        bytes: 15,
      },
    });
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]).toMatchObject({
      url: 'https://api.example.test/items?q=cats',
      method: 'POST',
      headers: { 'X-GraFx-Proxy-User-Agent': 'ua/1' },
      body: 'b',
    });
    sandbox.dispose();
  });

  it('keeps image bytes on the host and download returns them with the upstream content type', async () => {
    const png = Uint8Array.from([137, 80, 78, 71, 1, 2, 3]);
    const upstream = port(() => ({ ...json(''), headers: { 'content-type': 'image/png' }, body: png }));
    const sandbox = await load(
      connector(`async download(id) {
        const response = await this.runtime.fetch('https://cdn.example.test/' + id);
        if (response.text !== '') throw new Error('text should be empty for an image');
        return response.arrayBuffer;
      }`),
      upstream.fetch,
    );
    const result = await sandbox.call('download', ['a', 'thumbnail', 'web', {}]);
    expect(result).toEqual({ kind: 'binary', contentType: 'image/png', bytes: png });
    sandbox.dispose();
  });

  it('answers data: URLs itself', async () => {
    const upstream = port();
    const sandbox = await load(
      connector(`async getModel() {
        const a = await this.runtime.fetch('data:application/json;base64,eyJ4IjoxfQ==');
        const b = await this.runtime.fetch('data:,hello%20there');
        return [JSON.parse(a.text), b.text, a.headers['content-type']];
      }`),
      upstream.fetch,
    );
    expect(await sandbox.call('getModel', [{}])).toEqual({
      kind: 'json',
      value: [{ x: 1 }, 'hello there', 'application/json'],
    });
    expect(upstream.seen).toHaveLength(0);
    sandbox.dispose();
  });

  it('reports each fetch without query values', async () => {
    const records: unknown[] = [];
    const sandbox = await loadConnector({
      script: connector(
        `async getModel() { await this.runtime.fetch('https://u:p@api.example.test/a?key=secret&x=1'); }`,
      ),
      options: {},
      platform: 'web',
      fetch: port().fetch,
      onFetch: (record) => records.push(record),
    });
    await sandbox.call('getModel', [{}]);
    expect(records).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: 'https://api.example.test/a?key=&x=',
        status: 200,
        bytes: 11,
      }),
    ]);
    sandbox.dispose();
  });

  it('turns ConnectorHttpError into CONNECTOR_HTTP_ERROR with the status', async () => {
    const sandbox = await load(connector(`detail() { throw new ConnectorHttpError(404, 'no such asset'); }`));
    const error = await failure(sandbox.call('detail', ['x', {}]));
    expect([error.code, error.connectorStatus, error.message]).toEqual([
      'CONNECTOR_HTTP_ERROR',
      404,
      'no such asset',
    ]);
    sandbox.dispose();
  });

  it('names a method the connector does not have', async () => {
    const sandbox = await load(connector('getModel() { return {}; }'));
    expect((await failure(sandbox.call('getPage', [{}, {}]))).code).toBe('METHOD_MISSING');
    sandbox.dispose();
  });

  it('passes a failed network fetch to the connector as a TypeError it can catch', async () => {
    const sandbox = await load(
      connector(`async getModel() {
        try { await this.runtime.fetch('https://down.example.test/'); } catch (e) { return e.name + ': ' + e.message; }
      }`),
      async () => {
        throw new Error('connection refused');
      },
    );
    expect(await sandbox.call('getModel', [{}])).toEqual({
      kind: 'json',
      value: 'TypeError: fetch failed: connection refused',
    });
    sandbox.dispose();
  });

  it('stops on a fetch the port refuses, even when the connector catches it', async () => {
    const sandbox = await load(
      connector(`async getModel() {
        try { await this.runtime.fetch('https://evil.test/'); } catch { return 'swallowed'; }
      }`),
      async () => {
        throw new RuntimeError('FETCH_REFUSED', "host 'evil.test' is not in allowedDomains");
      },
    );
    const error = await failure(sandbox.call('getModel', [{}]));
    expect([error.code, error.message]).toEqual([
      'FETCH_REFUSED',
      "host 'evil.test' is not in allowedDomains",
    ]);
    sandbox.dispose();
  });
});

describe('scripts that do not load', () => {
  it('refuses a script that is not valid JavaScript', async () => {
    expect((await failure(checkScript('export default class {'))).code).toBe('SCRIPT_INVALID');
  });

  it('refuses a script without a default class', async () => {
    expect((await failure(checkScript('function connector() {}'))).code).toBe('NO_DEFAULT_CLASS');
    expect((await failure(checkScript('export default 42;'))).code).toBe('NO_DEFAULT_CLASS');
  });

  it('refuses a script that imports another module', async () => {
    const error = await failure(checkScript("import x from 'lodash'; export default class { }"));
    expect(error.code).toBe('SCRIPT_INVALID');
  });

  it('accepts a bundled connector', async () => {
    await expect(checkScript(connector('getModel() { return {}; }'))).resolves.toBeUndefined();
  });

  it('refuses a script that loops while it loads, at the top level or in its constructor, within the time limit', async () => {
    for (const script of [
      'while (true) {}\nexport default class C {}',
      'export default class C { constructor() { for (;;) {} } }',
    ]) {
      const started = performance.now();
      const error = await failure(checkScript(script, { timeoutMs: 300 }));
      expect(error.code, script).toBe('SCRIPT_INVALID');
      expect(error.message).toContain('still ran after 0.3 s');
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});

describe('limits', () => {
  it('interrupts an endless loop at the deadline, then runs the next call normally', async () => {
    const sandbox = await load(
      connector(`getModel(context) { if (context.loop) { for (;;) {} } return 'fine'; }`),
      port().fetch,
      { timeoutMs: 200 },
    );
    const started = Date.now();
    expect((await failure(sandbox.call('getModel', [{ loop: true }]))).code).toBe('TIME_LIMIT');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await sandbox.call('getModel', [{}])).toEqual({ kind: 'json', value: 'fine' });
    sandbox.dispose();
  });

  it('counts time spent waiting for a fetch and aborts it', async () => {
    let aborted = false;
    const sandbox = await load(
      connector(`async getModel() { await this.runtime.fetch('https://slow.example.test/'); }`),
      (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
      { timeoutMs: 200 },
    );
    expect((await failure(sandbox.call('getModel', [{}]))).code).toBe('TIME_LIMIT');
    expect(aborted).toBe(true);
    sandbox.dispose();
  });

  it('records a fetch still waiting when the invocation ends, by the time it ends', async () => {
    const records: FetchRecord[] = [];
    const sandbox = await loadConnector({
      script: connector(
        `async getModel() { await this.runtime.fetch('https://slow.example.test/a?key=v'); }`,
      ),
      options: {},
      platform: 'server',
      fetch: (_request, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
      onFetch: (record) => records.push(record),
      limits: { timeoutMs: 200 },
    });
    const call = failure(sandbox.call('getModel', [{}]));
    expect((await call).code).toBe('TIME_LIMIT');
    // Recorded as the call failed, not after: whoever reads the records then sees it.
    expect(records).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: 'https://slow.example.test/a?key=',
        status: undefined,
        aborted: true,
        requestSent: true,
        error: 'aborted: the invocation ended first',
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(records).toHaveLength(1);
    sandbox.dispose();
  });

  it('counts sleep against the deadline', async () => {
    const sandbox = await load(connector(`async getModel() { await sleep(10000); }`), port().fetch, {
      timeoutMs: 200,
    });
    expect((await failure(sandbox.call('getModel', [{}]))).code).toBe('TIME_LIMIT');
    sandbox.dispose();
  });

  it('stops a memory bomb', async () => {
    const sandbox = await load(
      connector(`getModel() { const a = []; for (;;) a.push('x'.repeat(1024) + a.length); }`),
      port().fetch,
      { memoryBytes: 16 * 1024 * 1024 },
    );
    const error = await failure(sandbox.call('getModel', [{}]));
    expect([error.code, error.message]).toEqual([
      'MEMORY_LIMIT',
      'the connector exceeded the memory limit of 16 MiB (RUNTIME_MEMORY_MB)',
    ]);
    sandbox.dispose();
  });

  it('stops a memory bomb at the default limit, where QuickJS runs out before it can make its error', async () => {
    for (const body of [
      `const a = []; const s = 'x'.repeat(1 << 20); for (;;) a.push(s + a.length);`,
      `const a = []; for (;;) a.push({ i: a.length, s: 'y' + a.length });`,
    ]) {
      const sandbox = await load(connector(`getModel() { ${body} }`));
      const error = await failure(sandbox.call('getModel', [{}]));
      expect([error.code, error.message]).toEqual([
        'MEMORY_LIMIT',
        'the connector exceeded the memory limit of 64 MiB (RUNTIME_MEMORY_MB)',
      ]);
      sandbox.dispose();
    }
  });

  it('stops deep recursion', async () => {
    const sandbox = await load(connector(`getModel() { const f = (n) => f(n + 1) + 1; return f(0); }`));
    expect((await failure(sandbox.call('getModel', [{}]))).code).toBe('STACK_LIMIT');
    sandbox.dispose();
  });

  it('stops the fetch past the limit', async () => {
    const upstream = port();
    const sandbox = await load(
      connector(`async getModel() {
        for (let i = 0; i < 150; i++) { try { await this.runtime.fetch('https://api.example.test/' + i); } catch {} }
      }`),
      upstream.fetch,
      { maxFetches: 100 },
    );
    const error = await failure(sandbox.call('getModel', [{}]));
    expect(error.code).toBe('FETCH_LIMIT');
    expect(error.message).toContain('100');
    expect(upstream.seen).toHaveLength(100);
    sandbox.dispose();
  });

  it('refuses a response body over the limit', async () => {
    const sandbox = await load(
      connector(`async getModel() { await this.runtime.fetch('https://api.example.test/big'); }`),
      port(() => json('x'.repeat(2048), 'text/plain')).fetch,
      { maxResponseBytes: 1024 },
    );
    expect((await failure(sandbox.call('getModel', [{}]))).code).toBe('RESPONSE_TOO_LARGE');
    sandbox.dispose();
  });

  it('gives a sandbox on a reused engine nothing of the one before, and its whole memory', async () => {
    const limits = { memoryBytes: 16 * 1024 * 1024 };
    // The first fills most of its memory and leaves state behind in every place a script can reach.
    const first = await load(
      connector(`getModel() {
        globalThis.left = 'secret-of-the-first';
        Object.prototype.leaked = 'polluted';
        globalThis.keep = Array.from({ length: 8000 }, (_, i) => 'y'.repeat(1024) + i);
        return { kept: globalThis.keep.length };
      }`),
      port().fetch,
      limits,
    );
    expect(await first.call('getModel', [{}])).toEqual({ kind: 'json', value: { kept: 8000 } });
    first.dispose();
    // Its engine is offered to the next sandbox of this thread: a fresh interpreter that can use as much again.
    const second = await load(
      connector(`getModel() {
        const keep = Array.from({ length: 8000 }, (_, i) => 'z'.repeat(1024) + i);
        return { left: typeof globalThis.left, leaked: typeof ({}).leaked, kept: keep.length };
      }`),
      port().fetch,
      limits,
    );
    expect(await second.call('getModel', [{}])).toEqual({
      kind: 'json',
      value: { left: 'undefined', leaked: 'undefined', kept: 8000 },
    });
    second.dispose();
  });

  it('hands a blank instance kept ready to one sandbox only, also when several start at once', async () => {
    const limits = { memoryBytes: 16 * 1024 * 1024 };
    keepEngineReady(limits.memoryBytes);
    // Each fills most of its memory: two sandboxes on one instance would run out where one alone does not.
    const sandboxes = await Promise.all(
      Array.from({ length: 4 }, (_, n) =>
        load(
          connector(`getModel() {
            globalThis.keep = Array.from({ length: 8000 }, (_, i) => 'k'.repeat(1024) + i);
            return { n: ${n}, kept: globalThis.keep.length };
          }`),
          port().fetch,
          limits,
        ),
      ),
    );
    const answers = await Promise.all(sandboxes.map((sandbox) => sandbox.call('getModel', [{}])));
    expect(answers.map((answer) => answer.kind === 'json' && answer.value)).toEqual(
      [0, 1, 2, 3].map((n) => ({ n, kept: 8000 })),
    );
    for (const sandbox of sandboxes) sandbox.dispose();
  });
});

describe('a session: one instance, calls interleaved where they await', () => {
  it("keeps what a query left in this for downloads running at once (Keepeek's shape)", async () => {
    const png = Uint8Array.from([137, 80, 78, 71]);
    const upstream = port((request) =>
      request.url.endsWith('/search')
        ? json({ token: 'from-query' })
        : { ...json(''), headers: { 'content-type': 'image/png' }, body: png },
    );
    const sandbox = await load(
      connector(`async query() {
        const response = await this.runtime.fetch(this.runtime.options.base + '/search');
        this.token = JSON.parse(response.text).token;
        return { data: [] };
      }
      async download(id) {
        if (this.token !== 'from-query') throw new Error('no token from query');
        await sleep(20);
        const response = await this.runtime.fetch(this.runtime.options.base + '/files/' + id + '?t=' + this.token);
        return response.arrayBuffer;
      }`),
      upstream.fetch,
    );
    await sandbox.call('query', [{}, {}]);
    const downloads = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((id) => sandbox.call('download', [String(id), 'mediumres', 'web', {}])),
    );
    expect(downloads).toEqual(Array(6).fill({ kind: 'binary', contentType: 'image/png', bytes: png }));
    sandbox.dispose();
  });

  it('counts each fetch to the call that made it, and keeps each call to its own options', async () => {
    const records: Record<string, string[]> = { a: [], b: [] };
    const sandbox = await load(
      connector(`async getModel() {
        const seen = [this.runtime.options.who];
        for (let i = 0; i < 3; i++) {
          await this.runtime.fetch(this.runtime.options.base + '/' + this.runtime.options.who + i);
          seen.push(this.runtime.options.who);
        }
        return seen;
      }`),
    );
    const calls = ['a', 'b'].map((who) =>
      sandbox.call('getModel', [{}], { who }, undefined, {
        onFetch: (record) => records[who]?.push(record.url),
      }),
    );
    expect(await Promise.all(calls)).toEqual([
      { kind: 'json', value: ['a', 'a', 'a', 'a'] },
      { kind: 'json', value: ['b', 'b', 'b', 'b'] },
    ]);
    expect(records.a).toEqual([0, 1, 2].map((i) => `https://api.example.test/a${i}`));
    expect(records.b).toEqual([0, 1, 2].map((i) => `https://api.example.test/b${i}`));
    sandbox.dispose();
  });

  it("counts each logError to the call that said it; without a call's own hook, the sandbox's hears it", async () => {
    const heard: string[] = [];
    const sandbox = await loadConnector({
      script: connector(`async getModel(context) {
        this.runtime.logError('before ' + context.who);
        await this.runtime.fetch(this.runtime.options.base + '/' + context.who);
        this.runtime.logError('after ' + context.who);
        return {};
      }`),
      options: { base: 'https://api.example.test' },
      platform: 'server',
      fetch: port().fetch,
      onLogError: (message) => heard.push(message),
    });
    const logs: Record<string, string[]> = { a: [], b: [] };
    await Promise.all(
      ['a', 'b'].map((who) =>
        sandbox.call('getModel', [{ who }], {}, undefined, {
          onLogError: (message) => logs[who]?.push(message),
        }),
      ),
    );
    expect(logs).toEqual({ a: ['before a', 'after a'], b: ['before b', 'after b'] });
    expect(heard).toEqual([]);
    await sandbox.call('getModel', [{ who: 'c' }]);
    expect(heard).toEqual(['before c', 'after c']);
    sandbox.dispose();
  });

  it('ends the session when one call trips a limit: its other calls in flight end with SESSION_ENDED', async () => {
    const sandbox = await load(
      connector(`async getModel(context) {
        this.kept = 'state';
        if (context.loop) { await sleep(50); for (;;) {} }
        await sleep(5000);
      }
      getCapabilities() { return { kept: this.kept ?? null }; }`),
      port().fetch,
      { timeoutMs: 400 },
    );
    const waiting = failure(sandbox.call('getModel', [{}]));
    const looping = failure(sandbox.call('getModel', [{ loop: true }]));
    expect((await looping).code).toBe('TIME_LIMIT');
    expect((await waiting).code).toBe('SESSION_ENDED');
    // A fresh interpreter for the next call: nothing of the ended one.
    expect(await sandbox.call('getCapabilities', [])).toEqual({ kind: 'json', value: { kept: null } });
    sandbox.dispose();
  });

  it('ends with SESSION_ENDED a call sent together with one that loops at once, not in the ended interpreter', async () => {
    const sandbox = await load(
      connector(`async getModel(context) {
        if (context.loop) for (;;) {}
        return { properties: [] };
      }`),
      port().fetch,
      { timeoutMs: 300 },
    );
    // Both wait for the interpreter in the same turn; the first runs to its deadline before the second begins.
    const looping = failure(sandbox.call('getModel', [{ loop: true }]));
    const next = failure(sandbox.call('getModel', [{}]));
    expect((await looping).code).toBe('TIME_LIMIT');
    expect(await next).toMatchObject({ code: 'SESSION_ENDED' });
    expect(await sandbox.call('getModel', [{}])).toEqual({ kind: 'json', value: { properties: [] } });
    sandbox.dispose();
  });

  it('shares nothing between two sandboxes of the same script: module globals and prototypes are their own', async () => {
    const script = `let memo;
    export default class Connector {
      constructor(runtime) { this.runtime = runtime; }
      getModel(context) {
        if (context.fill) { memo = context.fill; Array.prototype.leak = context.fill; }
        return { memo: memo ?? null, leak: [].leak ?? null };
      }
    }`;
    const [one, other] = await Promise.all([load(script), load(script)]);
    expect(await one.call('getModel', [{ fill: 'secret' }])).toEqual({
      kind: 'json',
      value: { memo: 'secret', leak: 'secret' },
    });
    expect(await other.call('getModel', [{}])).toEqual({ kind: 'json', value: { memo: null, leak: null } });
    one.dispose();
    other.dispose();
  });
});

describe('pointers and odd results', () => {
  it('answers a pointer another call of the session fetched, refuses one it did not, whatever its id', async () => {
    const png = Uint8Array.from([137, 80, 78, 71]);
    const upstream = port(() => ({ ...json(''), headers: { 'content-type': 'image/png' }, body: png }));
    const script = connector(`async query() {
        const response = await this.runtime.fetch(this.runtime.options.base + '/file');
        this.pointer = response.arrayBuffer;
        return { id: response.arrayBuffer.id };
      }
      async download(id) { return id === 'kept' ? this.pointer : { id, bytes: 4 }; }`);
    const sandbox = await load(script, upstream.fetch);
    const { value } = (await sandbox.call('query', [{}, {}])) as { value: { id: string } };
    expect(value.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await sandbox.call('download', ['kept', 'original', 'web', {}])).toEqual({
      kind: 'binary',
      contentType: 'image/png',
      bytes: png,
    });
    // Another session (another sandbox) cannot name it, nor can a guessed id.
    const other = await load(script, upstream.fetch);
    for (const id of [value.id, 'buffer-1']) {
      const error = await failure(other.call('download', [id, 'original', 'web', {}]));
      expect([error.code, error.message]).toEqual([
        'CONNECTOR_ERROR',
        expect.stringContaining('same session'),
      ]);
    }
    sandbox.dispose();
    other.dispose();
  });

  it('refuses at once a result nested deeper than 1,000 levels or larger than 10 MiB', async () => {
    const sandbox = await load(
      connector(`getModel(context) {
        if (context.wide) return 'x'.repeat(11 * 1024 * 1024);
        let value = 1;
        for (let i = 0; i < context.depth; i++) value = [value];
        return value;
      }`),
      port().fetch,
      { memoryBytes: 128 * 1024 * 1024 },
    );
    expect((await sandbox.call('getModel', [{ depth: 999 }])).kind).toBe('json');
    // 200,000 levels overflow the stack of QuickJS's JSON.stringify: the same refusal, and the session carries on.
    for (const context of [{ depth: 1001 }, { depth: 5000 }, { depth: 200_000 }, { wide: true }]) {
      const started = performance.now();
      const error = await failure(sandbox.call('getModel', [context]));
      expect(error.code).toBe('CONNECTOR_ERROR');
      expect(error.message).toMatch(/deeper than 1000 levels|larger than 10 MiB/);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect((await sandbox.call('getModel', [{ depth: 3 }])).kind).toBe('json');
    sandbox.dispose();
  });

  it.each([
    ['a control character (CR, LF)', 'image/png\\r\\nSet-Cookie: a=b', 'U+000D'],
    ['a character beyond Latin-1, which no header can carry', 'text/\\u4e2d', 'U+4E2D: beyond Latin-1'],
  ])('refuses a data: URL whose content type holds %s', async (_what, type, named) => {
    const sandbox = await load(
      connector(`async download() {
        return (await this.runtime.fetch('data:${type};base64,iVBORw==')).arrayBuffer;
      }`),
    );
    const error = await failure(sandbox.call('download', ['x', 'original', 'web', {}]));
    expect([error.code, error.message]).toEqual([
      'CONNECTOR_ERROR',
      expect.stringContaining(`not a valid header value (${named}`),
    ]);
    sandbox.dispose();
  });
});

describe('host memory', () => {
  it("counts response bodies kept on the host against the session's memory: MEMORY_LIMIT past it", async () => {
    const big = new Uint8Array(6 * 1024 * 1024);
    const seen: number[] = [];
    const sandbox = await load(
      connector(`async download() {
        const kept = [];
        for (let i = 0; i < 20; i++) kept.push((await this.runtime.fetch(this.runtime.options.base + '/big' + i)).arrayBuffer);
        return kept[0];
      }`),
      async (request) => {
        seen.push(request.maxResponseBytes);
        return { ...json(''), headers: { 'content-type': 'image/png' }, body: big };
      },
      { memoryBytes: 16 * 1024 * 1024 },
    );
    const error = await failure(sandbox.call('download', ['x', 'original', 'web', {}]));
    expect(error.code).toBe('MEMORY_LIMIT');
    // The port was told to stop reading where the session's room ended.
    expect(seen).toEqual([16, 10, 4].map((mib) => mib * 1024 * 1024));
    sandbox.dispose();
  });

  it('measures a data: URL before decoding it, within the same budget', async () => {
    const sandbox = await load(
      connector(`async download() {
        const url = 'data:image/png;base64,' + 'A'.repeat(8 * 1024 * 1024);
        const kept = [];
        for (let i = 0; i < 20; i++) kept.push((await this.runtime.fetch(url)).arrayBuffer);
        return kept[0];
      }`),
      port().fetch,
      { memoryBytes: 32 * 1024 * 1024 },
    );
    expect((await failure(sandbox.call('download', ['x', 'original', 'web', {}]))).code).toBe('MEMORY_LIMIT');
    sandbox.dispose();
  });
});

describe('bodies the port keeps outside the runtime', () => {
  const keeper = `export default class Keeper {
    constructor(runtime) { this.runtime = runtime; }
    async query() {
      this.kept = (await this.runtime.fetch('https://api.example.test/listed.jpg')).arrayBuffer;
      return { pageSize: 1, data: [], links: { nextPage: '' } };
    }
    async download(id) {
      if (id === 'listed') return this.kept;
      const response = await this.runtime.fetch('https://api.example.test/' + id);
      if (response.text !== '') throw new Error('a kept body has no text');
      return response.arrayBuffer;
    }
    getCapabilities() { return { query: true, detail: true, filtering: false, metadata: false }; }
  }`;

  /** A port that keeps every body itself: `big` ones 20 MB long, others 1 KB; it records what it was told to drop. */
  const keepingPort = () => {
    const released: string[] = [];
    const fetch: HostFetch = async (request) => ({
      status: 200,
      statusText: 'OK',
      url: request.url,
      redirected: false,
      headers: { 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(0),
      kept: {
        ref: request.url,
        bytes: request.url.includes('big') ? 20_000_000 : 1_000,
        release: () => released.push(request.url),
      },
    });
    return { released, fetch };
  };

  it('answers a download with the kept ref, and releases each body when its session ends', async () => {
    const { released, fetch } = keepingPort();
    const sandbox = await loadConnector({ script: keeper, options: {}, platform: 'server', fetch });
    await sandbox.call('query', [{}, {}]);
    const listed = await sandbox.call('download', ['listed', 'mediumres', 'web', {}]);
    expect(listed).toMatchObject({
      kind: 'binary',
      contentType: 'image/jpeg',
      kept: 'https://api.example.test/listed.jpg',
    });
    const own = await sandbox.call('download', ['own.jpg', 'mediumres', 'web', {}]);
    expect(own).toMatchObject({ kind: 'binary', kept: 'https://api.example.test/own.jpg' });
    // Both stay for the session's later calls (one may answer the same download again), until the session ends.
    expect(released).toEqual([]);
    sandbox.dispose();
    expect(released).toEqual(['https://api.example.test/listed.jpg', 'https://api.example.test/own.jpg']);
  });

  it("counts a kept body's length against the session's memory, and releases one that does not fit", async () => {
    const { released, fetch } = keepingPort();
    const sandbox = await loadConnector({
      script: keeper,
      options: {},
      platform: 'server',
      fetch,
      limits: { memoryBytes: 16 * 1024 * 1024 },
    });
    await expect(sandbox.call('download', ['big.jpg', 'mediumres', 'web', {}])).rejects.toMatchObject({
      code: 'MEMORY_LIMIT',
    });
    expect(released).toEqual(['https://api.example.test/big.jpg']);
    sandbox.dispose();
  });
});
