/**
 * What a target's answer may carry back to the platform's origin (docs/connector-proxy.md, "Responses"): an
 * allow-list of response headers, and only HTTP statuses. The targets are raw loopback peers that answer on purpose
 * what a well-behaved server would not.
 */
import { createServer, type Server } from 'node:net';
import type { SecretBox } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertConnector, newSecrets, seedEnvironment } from './support/database.ts';
import { type Harness, startProxy } from './support/harness.ts';

/** A peer that answers every request with `head` (status line and headers) and a small body, then closes. */
const rawPeer = async (head: string) => {
  const server: Server = createServer((socket) => {
    socket.once('data', () => {
      socket.end(`${head}\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok`);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const HARMFUL = {
  'clear-site-data': '"cookies", "storage"',
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'alt-svc': 'h3=":443"; ma=86400',
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  refresh: '0; url=https://evil.example/',
  link: '<https://evil.example/sw.js>; rel=preload; as=script',
  'service-worker-allowed': '/',
  'set-cookie': 'platform-session=stolen; Path=/',
  'x-frame-options': 'ALLOWALL',
  'x-grafx-unauthorized': 'forged',
  'content-security-policy': "script-src 'unsafe-inline'",
};

const KEPT = {
  'content-type': 'application/json; charset=utf-8',
  'content-language': 'en',
  'content-disposition': 'attachment; filename="a.json"',
  'cache-control': 'private, max-age=60',
  etag: '"v1"',
  'last-modified': 'Mon, 23 Nov 2026 10:00:00 GMT',
  vary: 'Accept',
  'retry-after': '3',
  'www-authenticate': 'Bearer realm="api"',
  'x-request-id': 'req-42',
  'x-total-count': '1234',
  location: '/things/1',
};

describe.each((await testBackends()).slice(0, 1))('proxied answers on $name', (backend) => {
  let database: TestDatabase;
  let secrets: SecretBox;
  let harness: Harness;
  let connector: string;
  const peers: { close(): Promise<void> }[] = [];

  const answerOf = async (head: string) => {
    const peer = await rawPeer(head);
    peers.push(peer);
    return harness.call(connector, { url: `${peer.url}/x` });
  };

  beforeAll(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    harness = await startProxy(database, secrets);
    connector = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await harness?.close();
    for (const peer of peers) await peer.close();
    await database?.close();
  });

  it('forwards the allow-listed headers and drops every other one', async () => {
    const headers = Object.entries({ ...HARMFUL, ...KEPT })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    const answer = await answerOf(`HTTP/1.1 201 Created\r\n${headers}`);
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('ok');
    for (const [name, value] of Object.entries(KEPT)) {
      if (name !== 'vary') expect(answer.headers[name], name).toBe(value);
    }
    // The target's own Vary, and the proxy's headers that chose this answer besides the URL.
    expect(answer.headers.vary).toBe(
      'accept, Authorization, X-GraFx-Proxy-External-Url, X-GraFx-Proxy-External-Authentication-Source, X-GraFx-Proxy-Exclude-Headers',
    );
    for (const name of Object.keys(HARMFUL)) {
      if (name === 'content-security-policy') continue;
      expect(answer.headers[name], name).toBeUndefined();
    }
    expect(answer.headers['content-security-policy']).toBe('sandbox');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keys a cacheable answer on the proxy headers that chose it, and keeps a target Vary of *', async () => {
    const plain = await answerOf('HTTP/1.1 200 OK\r\ncache-control: max-age=600');
    expect(plain.headers.vary).toBe(
      'Authorization, X-GraFx-Proxy-External-Url, X-GraFx-Proxy-External-Authentication-Source, X-GraFx-Proxy-Exclude-Headers',
    );
    const star = await answerOf('HTTP/1.1 200 OK\r\nvary: *');
    expect(star.headers.vary).toBe('*');
  });

  it.each([600, 699, 999])(
    'maps status %i, which is not an HTTP status, to 502 ProblemDetails',
    async (status) => {
      const answer = await answerOf(`HTTP/1.1 ${status} Strange\r\nclear-site-data: "*"`);
      expect(answer.status).toBe(502);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(answer.headers['clear-site-data']).toBeUndefined();
      expect(JSON.parse(answer.text)).toMatchObject({
        status: 502,
        detail: expect.stringContaining(`status ${status}, which is not an HTTP status`),
        traceId: expect.any(String),
      });
    },
  );

  it.each(['HTTP/1.1 099 Too Low', 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket'])(
    'answers 502 ProblemDetails, never a non-final or invalid status: %s',
    async (head) => {
      const answer = await answerOf(head);
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.text)).toMatchObject({ status: 502, traceId: expect.any(String) });
    },
  );
});
