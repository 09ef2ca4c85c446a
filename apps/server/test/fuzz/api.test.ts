/**
 * Fuzzing of every operation the served /openapi.json documents, and of the connector proxy route, with tokens
 * of every role: valid, boundary and hostile requests (wrong types, huge numbers, odd Unicode, path traversal,
 * duplicate query keys, missing, doubled and oversized bodies, gzip/deflate/br bodies, undecodable ones, other
 * encodings and a compressed bomb, wrong content types). Every answer must keep
 * docs/errors.md: never a 5xx, every error a ProblemDetails with `traceId` served as application/json, no
 * answer above 1 MiB.
 *
 * CI runs FUZZ_RUNS=300 generated requests per backend (plus one sweep of every operation × every caller);
 * `FUZZ_RUNS=5000 npx vitest run test/fuzz` runs a long one. FUZZ_SEED changes the fixed seed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { testBackends } from '@platform/store/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLERS, callerTokens, type KnownIds, seedWorld } from '../support/fuzz-world.ts';
import { contractViolations, MiB, type RawRequest, sendRaw } from '../support/raw-http.ts';
import { seededPlatform } from '../support/seeded.ts';
import { type Components, fromSchema, hostileString, type Schema } from './arbitraries.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const backends = await testBackends();

type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema };
type Operation = {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  statuses: number[];
};
type Document = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        operationId: string;
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, unknown>;
      }
    >
  >;
  components: { schemas: Components };
};

/** Percent-encodes every byte outside RFC 3986's unreserved set (lone surrogates become U+FFFD). */
const encode = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Sent in the path as written: traversal, malformed escapes, encoded slashes. */
const RAW_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '..%2f..%2f',
  '%ZZ',
  '%',
  '%00',
  '%c0%ae%c0%ae',
  '%252e',
  ';x=1',
  '%ff',
  '%ed%a0%80',
];

type Generated = RawRequest & { caller: string };

/** 16 MiB of JSON whitespace in 16 KiB of gzip: over every limit but the import's once decoded. */
const COMPRESSED_BOMB = gzipSync(Buffer.alloc(16 * MiB, 0x20), { level: 9 });

/** 655,000 `{"a":1}` objects: 5 MiB of tiny values in 8 KB of gzip (each body's value limit stops it). */
const MANY_SMALL_NODES = gzipSync(`{"name":"n","content":[${Array(655_000).fill('{"a":1}').join(',')}]}`, {
  level: 9,
});

/** Page tokens carrying U+0000 or a lone surrogate once the server decodes them (base64url of JSON). */
const CRAFTED_PAGE_TOKENS = [
  '["a\\u0000b","00000000-0000-4000-8000-000000000000"]',
  '["\\ud800","00000000-0000-4000-8000-000000000000"]',
  '["\\u0000",{"toString":null}]',
  '{"__proto__":null}',
].map((json) => Buffer.from(json).toString('base64url'));

/** Bodies with object-prototype keys, numbers JavaScript cannot keep, and tiny values by the hundred thousand. */
const CRAFTED_BODIES = [
  '{"constructor":{"a":1},"toString":null,"valueOf":1,"hasOwnProperty":"x","name":"n"}',
  '{"name":"n","content":{"deep":{"__proto__":{"polluted":true}}}}',
  '{"name":"n","content":{"x":1e400}}',
  '{"name":"n","content":[12345678901234567890,-1e-400]}',
  '{"usage":"browser","key":"X","value":"v","__proto__":{"a":1}}',
  `{"name":"n","content":[${'1,'.repeat(40_000)}1e999]}`,
];

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The operation table's operations; the proxy's path item is fuzzed on its own, below, with its own headers. */
const operationsOf = (document: Document): Operation[] =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => HTTP_METHODS.has(method) && !path.endsWith('/proxy'))
      .map(([method, op]) => ({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        ...(op.requestBody ? { body: op.requestBody.content['application/json']?.schema ?? {} } : {}),
        statuses: Object.keys(op.responses).map(Number),
      })),
  );

const requestArbitrary = (
  op: Operation,
  known: KnownIds,
  components: Components,
): fc.Arbitrary<Generated> => {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const knownOf = (p: Parameter) =>
    known[p.in === 'query' && p.name === 'tagId' ? 'tagId_query' : p.name] ?? [];

  const segment = (p: Parameter) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: knownOf(p).length ? fc.constantFrom(...knownOf(p)).map(encode) : fc.constant('x'),
      },
      {
        weight: 2,
        arbitrary: fromSchema(p.schema, components, 2).map((v) =>
          encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? '')),
        ),
      },
      { weight: 2, arbitrary: hostileString().map(encode) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    );
  const queryValue = (p: Parameter) =>
    fc.oneof(
      { weight: p.name === 'nextPageToken' ? 4 : 0, arbitrary: fc.constantFrom(...CRAFTED_PAGE_TOKENS) },
      { weight: 5, arbitrary: knownOf(p).length ? fc.constantFrom(...knownOf(p)) : fc.constant('1') },
      {
        weight: 2,
        arbitrary: fromSchema(p.schema, components, 2).map((v) =>
          typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
        ),
      },
      { weight: 2, arbitrary: hostileString() },
    );
  // One query entry: omitted, once, twice (duplicate key), bracketed (`name[]`, `name[a]`).
  const queryEntry = (p: Parameter) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as string[]) },
      { weight: 6, arbitrary: queryValue(p).map((v) => [`${p.name}=${encode(v)}`]) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(queryValue(p), queryValue(p))
          .map(([a, b]) => [`${p.name}=${encode(a)}`, `${p.name}=${encode(b)}`]),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom([`${p.name}[]=1`], [`${p.name}[a]=1`], [`${p.name}`], [`${p.name}=%ZZ`]),
      },
    );
  const extraQuery = fc.constantFrom(
    [],
    [],
    [],
    ['unknown=1'],
    ['__proto__[x]=1'],
    ['a=1&a=2&a=3'],
    ['%=%'],
    ['&&&'],
  );

  const schemaBody = op.body ? fromSchema(op.body, components, 6) : fc.jsonValue({ maxDepth: 2 });
  const bodyArbitrary: fc.Arbitrary<{
    body?: string | Buffer;
    contentType?: string;
    contentEncoding?: string;
  }> = fc.oneof(
    {
      weight: op.body ? 8 : 1,
      arbitrary: schemaBody.map((v) => ({
        body: JSON.stringify(v) ?? 'null',
        contentType: 'application/json',
      })),
    },
    {
      // The same bodies compressed, as docs/errors.md lets clients send them.
      weight: op.body ? 2 : 0,
      arbitrary: fc
        .tuple(
          schemaBody,
          fc.constantFrom(['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]),
        )
        .map(([v, [coding, compress]]) => ({
          body: (compress as (b: Buffer) => Buffer)(Buffer.from(JSON.stringify(v) ?? 'null')),
          contentType: 'application/json',
          contentEncoding: coding as string,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { body: Buffer.from('not gzip at all'), contentType: 'application/json', contentEncoding: 'gzip' },
        { body: Buffer.from('{}'), contentType: 'application/json', contentEncoding: 'br' },
        { body: gzipSync('{}'), contentType: 'application/json', contentEncoding: 'compress' },
        { body: gzipSync('{}'), contentType: 'application/json', contentEncoding: 'gzip, gzip' },
        { body: COMPRESSED_BOMB, contentType: 'application/json', contentEncoding: 'gzip' },
        { body: `"${'x'.repeat(300 * 1024)}"`, contentType: 'application/json', contentEncoding: 'identity' },
      ),
    },
    { weight: 2, arbitrary: fc.constant({}) }, // missing body
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { body: '{}{}', contentType: 'application/json' }, // doubled body
        { body: '[1][2]', contentType: 'application/json' },
        { body: '{"a":1}', contentType: 'text/plain' },
        { body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
        {
          body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
          contentType: 'multipart/form-data; boundary=x',
        },
        { body: '{"a":1}', contentType: 'application/json; charset=utf-16' },
        { body: '{"a":1}', contentType: 'application/json; charset=latin1' },
        { body: '<a/>', contentType: 'application/xml' },
        { body: '{"a":', contentType: 'application/json' },
        { body: '', contentType: 'application/json' },
        { body: Buffer.from([0xff, 0xfe, 0x7b, 0x00]), contentType: 'application/json' },
        { body: '{"a":1}', contentType: 'application/merge-patch+json' },
        { body: `"${'x'.repeat(MiB + 10)}"`, contentType: 'application/json' }, // over the 1 MiB limit
        { body: `[${'['.repeat(5000)}${']'.repeat(5000)}]`, contentType: 'application/json' },
        { body: '{"__proto__":{"isAdmin":true}}', contentType: 'application/json' },
        { body: '1e999999', contentType: 'application/json' },
      ),
    },
    {
      weight: op.body ? 2 : 0,
      arbitrary: fc.oneof(
        fc.constantFrom(...CRAFTED_BODIES).map((body) => ({ body, contentType: 'application/json' })),
        fc.constant({ body: MANY_SMALL_NODES, contentType: 'application/json', contentEncoding: 'gzip' }),
      ),
    },
  );

  const method = fc.oneof(
    { weight: 20, arbitrary: fc.constant(op.method) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('OPTIONS', 'PROPFIND', 'TRACE', 'PATCH', 'DELETE', 'POST', 'M-SEARCH'),
    },
  );
  const traceparent = fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        'garbage',
        '00-00000000000000000000000000000000-0000000000000000-00',
        `00-${'f'.repeat(5000)}`,
        'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      ),
    },
  );

  return fc
    .record({
      caller: fc.constantFrom(...CALLERS.map((c) => c.name)),
      segments: fc.tuple(...pathParams.map(segment)),
      query: fc.tuple(...queryParams.map(queryEntry), extraQuery),
      body: bodyArbitrary,
      method,
      traceparent,
    })
    .map(({ caller, segments, query, body, method, traceparent }) => {
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => (segments as string[])[i++] ?? 'x');
      const search = (query as string[][]).flat().join('&');
      const headers: Record<string, string> = {};
      if (body.contentType) headers['content-type'] = body.contentType;
      if (body.contentEncoding) headers['content-encoding'] = body.contentEncoding;
      if (traceparent) headers.traceparent = traceparent;
      return {
        caller,
        method,
        path: search ? `${path}?${search}` : path,
        headers,
        ...(body.body === undefined ? {} : { body: body.body }),
      };
    });
};

const describe_ = (request: Generated) => {
  const shown =
    typeof request.body === 'string' ? request.body.slice(0, 80) : `<${request.body?.length ?? 0} bytes>`;
  return `${request.caller}: ${request.method} ${request.path.slice(0, 160)} ${JSON.stringify(request.headers).slice(0, 300)} ${shown}`;
};

/** Header the fuzz target puts on its own answers. */
const UPSTREAM = 'x-fuzz-upstream';

type Finding = { request: string; status: number; violations: string[]; body: string };

describe.each(backends)('fuzz: every documented operation on $name', (backend) => {
  const s = seededPlatform(backend);
  let document: Document;
  let operations: Operation[];
  let known: KnownIds;
  let tokens: Map<string, string | undefined>;
  let target: Server;
  let targetUrl: string;

  beforeAll(async () => {
    document = (await (await s.tp.call('/openapi.json')).json()) as Document;
    operations = operationsOf(document);
    known = await seedWorld(s.tp);
    tokens = await callerTokens(s.tp);
    // The connector's external API: echoes a little JSON, resets when asked to.
    target = createServer((req, res) => {
      if (req.url?.startsWith('/reset')) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', [UPSTREAM]: '1' });
      res.end(JSON.stringify({ ok: true, path: req.url }));
    });
    // What the target's own parser rejects (an odd method the proxy forwarded) is marked as the target's answer.
    target.on('clientError', (_error, socket) => {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\n${UPSTREAM}: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    target?.closeAllConnections();
    await new Promise((resolve) => target?.close(resolve));
  });

  const send = async (
    request: Generated,
    findings: Finding[],
    statuses: Map<string, Map<number, number>>,
    key: string,
    allowed: readonly number[] = [],
  ) => {
    const authorization = tokens.get(request.caller);
    const headers = { ...request.headers, ...(authorization ? { authorization } : {}) };
    let reply: Awaited<ReturnType<typeof sendRaw>>;
    try {
      // Node keeps a connection that carried an `Upgrade` request in a state where a later oversized request
      // hangs (node itself, with or without the platform): such requests get a connection of their own.
      reply = await sendRaw(s.tp.url, { ...request, headers }, { fresh: 'upgrade' in headers });
    } catch (error) {
      // A connection dropped without an answer is a failure too.
      findings.push({
        request: describe_(request),
        status: 0,
        violations: [`no answer: ${(error as Error).message}`],
        body: '',
      });
      return;
    }
    if (!reply) return; // node refused to send it: nothing reached the server
    const counts = statuses.get(key) ?? new Map<number, number>();
    counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
    statuses.set(key, counts);
    // An upstream answer passed through by the proxy is the target's, not the platform's: only its size and
    // status class are the platform's business.
    const violations = reply.headers[UPSTREAM]
      ? contractViolations({ ...reply, status: 200 }, { allowedStatuses: allowed })
      : contractViolations(reply, { allowedStatuses: allowed });
    if (request.method === 'HEAD') return;
    if (violations.length) {
      findings.push({
        request: describe_(request),
        status: reply.status,
        violations,
        body: reply.body.toString('utf8').slice(0, 200),
      });
    }
  };

  const report = (findings: Finding[]) => {
    // One line per distinct failure, so one bug does not hide another.
    const distinct = new Map<string, Finding>();
    for (const f of findings)
      distinct.set(`${f.status} ${f.violations.join(',')} ${f.request.split(' ')[2]?.split('?')[0]}`, f);
    if (distinct.size) {
      // The server's own account of each unexpected error (message and top of stack), to find the cause.
      const causes = s.tp.logs
        .filter((l) => l.includes('unexpected error'))
        .map((l) => {
          const { err } = JSON.parse(l) as { err?: { message?: string; stack?: string } };
          return `${err?.message} @ ${err?.stack?.split('\n').slice(1, 4).join(' ')}`;
        });
      console.error([...distinct.values()].map((f) => `${f.status} ${f.violations} ${f.request}`).join('\n'));
      console.error([...new Set(causes)].join('\n'));
    }
    return [...distinct.values()];
  };

  it('answers every operation × every caller with valid parameters within the contract', async () => {
    const findings: Finding[] = [];
    const statuses = new Map<string, Map<number, number>>();
    for (const op of operations) {
      // Known ids in the path, a schema-shaped body (hostile values all but switched off).
      const path = op.path.replace(/\{[^}]+\}/g, (m) => encode(known[m.slice(1, -1)]?.[0] ?? 'x'));
      const body = op.body
        ? JSON.stringify(
            fc.sample(fromSchema(op.body, document.components.schemas, 10_000), {
              seed: SEED,
              numRuns: 1,
            })[0],
          )
        : undefined;
      for (const caller of CALLERS) {
        await send(
          {
            caller: caller.name,
            method: op.method,
            path,
            headers: op.body ? { 'content-type': 'application/json' } : {},
            ...(body === undefined ? {} : { body }),
          },
          findings,
          statuses,
          `${op.method} ${op.path}`,
          op.statuses.filter((st) => st === 502),
        );
      }
    }
    expect(report(findings)).toEqual([]);
  });

  it(`answers ${RUNS} generated requests across every operation within the contract`, async () => {
    const findings: Finding[] = [];
    const statuses = new Map<string, Map<number, number>>();
    const perOperation = Math.max(3, Math.ceil(RUNS / operations.length));
    for (const [index, op] of operations.entries()) {
      const requests = fc.sample(requestArbitrary(op, known, document.components.schemas), {
        seed: SEED + index,
        numRuns: perOperation,
      });
      // A few at a time, as clients do.
      for (let i = 0; i < requests.length; i += 4) {
        await Promise.all(
          requests.slice(i, i + 4).map((r) =>
            send(
              r,
              findings,
              statuses,
              `${op.method} ${op.path}`,
              op.statuses.filter((st) => st === 502),
            ),
          ),
        );
      }
    }
    const sent = [...statuses.values()].reduce((n, m) => n + [...m.values()].reduce((a, b) => a + b, 0), 0);
    console.info(`[fuzz] ${backend.name}: ${sent} generated requests over ${operations.length} operations`);
    expect(report(findings)).toEqual([]);
    // Every operation was reached at all.
    expect(operations.filter((op) => !statuses.has(`${op.method} ${op.path}`))).toEqual([]);
  }, 120_000);

  it('answers every tRPC procedure given object-valued parameters, prototype keys and huge numbers, never a 5xx', async () => {
    const token = tokens.get('owner rw');
    const failures: string[] = [];
    const object = { toString: null, valueOf: null };
    for (const op of operations) {
      const names = op.parameters.filter((p) => p.in !== 'header').map((p) => p.name);
      const valid = Object.fromEntries(names.map((name) => [name, known[name]?.[0] ?? 'x']));
      const inputs: unknown[] = [
        ...names.map((name) => ({ ...valid, [name]: object })),
        ...names.map((name) => ({ ...valid, [name]: [object] })),
        ...CRAFTED_PAGE_TOKENS.map((nextPageToken) => ({ ...valid, nextPageToken })),
        ...(op.body ? CRAFTED_BODIES.map((body) => `{"body":${body},"environment":"acme-prod"}`) : []),
      ];
      for (const input of inputs) {
        const text = typeof input === 'string' ? input : JSON.stringify(input);
        const path = `/trpc/${op.operationId}`;
        const reply =
          op.method === 'GET'
            ? await sendRaw(s.tp.url, {
                method: 'GET',
                path: `${path}?input=${encodeURIComponent(text)}`,
                headers: { authorization: token! },
              })
            : await sendRaw(s.tp.url, {
                method: 'POST',
                path,
                headers: { authorization: token!, 'content-type': 'application/json' },
                body: text,
              });
        if (reply && reply.status >= 500 && !op.statuses.includes(reply.status)) {
          failures.push(
            `${reply.status} ${op.operationId} ${text.slice(0, 120)} ${reply.body.toString().slice(0, 200)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers hostile requests to the connector proxy route within the contract', async () => {
    const findings: Finding[] = [];
    const statuses = new Map<string, Map<number, number>>();
    const proxyPath = `/grafx/api/v1/environment/acme-prod/connectors/${known.connectorId![0]}/proxy`;
    const header = (values: fc.Arbitrary<string>) =>
      fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 5, arbitrary: values });
    const url = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(`${targetUrl}/items`, `${targetUrl}/items?a=1&a=2`, `${targetUrl}/reset`),
      },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'http://127.0.0.1:1/closed',
          `${targetUrl.replace('127.0.0.1', 'localhost')}/x`,
          `http://user:pass@${targetUrl.slice(7)}/x`,
          'http://[::1]:1/',
          'http://169.254.169.254/latest/meta-data',
          'http://evil.example/',
          'ftp://127.0.0.1/',
          'file:///etc/passwd',
          'javascript:alert(1)',
          'http://',
          'http://127.0.0.1:99999/',
          'http://0x7f.1/',
          'http://%31%32%37.0.0.1/',
          `${targetUrl}/${'a'.repeat(20_000)}`,
          `${targetUrl}/../../etc/passwd`,
          `${targetUrl}/%ZZ`,
          'http://xn--ls8h.example/',
          'http://😀.example/',
          `${targetUrl}/items, ${targetUrl}/other`,
        ),
      },
      { weight: 1, arbitrary: hostileString() },
    );
    const request = fc.record({
      caller: fc.constantFrom(...CALLERS.map((c) => c.name)),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'),
      url: header(url),
      externalMethod: header(
        fc.constantFrom(
          'GET',
          'post',
          'CONNECT',
          'TRACE',
          'FOO',
          '',
          'G E T',
          'GET\tX',
          '😀',
          'x'.repeat(5000),
        ),
      ),
      source: header(fc.constantFrom('browser', 'server', 'SERVER', '', 'both', 'browser, server')),
      exclude: header(
        fc.constantFrom('authorization', 'a, b, , c', ',,,', 'x-api-key', '*', 'host, content-length'),
      ),
      extra: fc.constantFrom<Record<string, string | string[]>>(
        {},
        { 'x-grafx-proxy-external-url': [`${targetUrl}/a`, `${targetUrl}/b`] },
        { connection: 'x-grafx-proxy-external-url, close' },
        { 'transfer-encoding': 'chunked' },
        { te: 'trailers', upgrade: 'websocket', connection: 'upgrade' },
        { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        { host: 'evil.example' },
        { 'x-forwarded-for': '1.2.3.4', forwarded: 'for=1.2.3.4' },
        { cookie: 'a=b', 'x-grafx-secret': 'y' },
        { 'x-big': 'b'.repeat(8_000) },
        { traceparent: 'garbage' },
      ),
      body: fc.oneof(
        fc.constant(undefined),
        fc.constant('{"a":1}'),
        fc.string({ unit: 'binary', maxLength: 50 }),
      ),
    });
    const samples = fc.sample(request, { seed: SEED, numRuns: Math.max(60, Math.ceil(RUNS / 3)) });
    for (const r of samples) {
      const headers: Record<string, string | string[]> = { ...r.extra };
      if (r.url !== undefined) headers['x-grafx-proxy-external-url'] ??= r.url;
      if (r.externalMethod !== undefined) headers['x-grafx-proxy-external-method'] = r.externalMethod;
      if (r.source !== undefined) headers['x-grafx-proxy-external-authentication-source'] = r.source;
      if (r.exclude !== undefined) headers['x-grafx-proxy-exclude-headers'] = r.exclude;
      if (headers['transfer-encoding'] && r.body === undefined) delete headers['transfer-encoding'];
      await send(
        {
          caller: r.caller,
          method: r.method,
          path: proxyPath,
          headers,
          ...(r.body === undefined ? {} : { body: r.body }),
        },
        findings,
        statuses,
        'proxy',
        // An upstream that cannot be reached or resets is a 502 of the proxy, not a fault of the platform.
        [502, 504],
      );
    }
    expect(report(findings)).toEqual([]);
    // The static secret never travels back to a caller.
  }, 60_000);
});
