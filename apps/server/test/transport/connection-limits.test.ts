/**
 * Connection limits of the composed server with real sockets on loopback (docs/configuration.md, "Connections"):
 * idle and stalled-body timeouts on every route and listener, the per-client connection share, load balancers named
 * by TRUSTED_PROXIES, and the proxy's total time bound on an exchange with a target that trickles.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const pglite = (await testBackends()).find((b) => b.name === 'pglite')!;
const IDLE_MS = 2000;

/** How long the server took to close a connection that does what `act` does, then nothing; the bytes it sent. */
const closedAfter = (url: string, act: (socket: Socket) => void, waitMs = 10_000) =>
  new Promise<{ ms: number | undefined; answer: string }>((resolve) => {
    const { port } = new URL(url);
    const started = performance.now();
    let answer = '';
    const socket = connect(Number(port), '127.0.0.1', () => act(socket));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ ms: undefined, answer });
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, answer });
    });
  });

const expectIdleCut = (ms: number | undefined) => {
  expect(ms).toBeDefined();
  expect(ms!).toBeGreaterThan(IDLE_MS - 100);
  expect(ms!).toBeLessThan(IDLE_MS + 1500);
};

/** A socket that has connected (the server counted it) and holds its connection open, sending nothing. */
const hold = async (url: string): Promise<Socket> => {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
};

/** A GET on a connection of its own, closed after the answer: no pooled connection counts against the share. */
const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number }>((resolve, reject) => {
    request(url, { agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    })
      .on('error', reject)
      .end();
  });

describe('connection limits', () => {
  let tp: TestPlatform;
  let trickle: Listening;
  let connectorId: string;
  let token: string;

  beforeAll(async () => {
    tp = await startTestPlatform(pglite, {
      IDLE_TIMEOUT_SECONDS: String(IDLE_MS / 1000),
      REQUEST_TIMEOUT_SECONDS: '60',
      METRICS_PORT: '0',
      MAX_CONNECTIONS: '40',
      PROXY_EXCHANGE_TIMEOUT_SECONDS: '3',
    });
    await importDataFile(tp.database, fixture(new Date()));
    token = await tp.token(USERS.owner, ['platform:read', 'platform:write']);
    const published = await tp.call(connectorsPath, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(connectorBody()),
    });
    expect(published.status).toBe(201);
    connectorId = ((await published.json()) as { id: string }).id;
    // A target that answers its head at once, then one byte a second, for ever.
    trickle = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'), 1000);
      res.on('close', () => clearInterval(timer));
    });
  });
  afterAll(async () => {
    await trickle?.close();
    await tp?.close();
  });

  it('answers a silent connection 408 and closes it at the idle timeout, on the API and the metrics listener', async () => {
    const api = await closedAfter(tp.url, () => {});
    expectIdleCut(api.ms);
    expect(api.answer).toMatch(/^HTTP\/1\.1 408 /);
    const metrics = await closedAfter(tp.platform.metricsUrl!, () => {});
    expectIdleCut(metrics.ms);
    // A head that stops half-way is silence too.
    const half = await closedAfter(tp.url, (socket) => socket.write('GET /api/ping HTTP/1.1\r\nHo'));
    expectIdleCut(half.ms);
  });

  it('cuts a body that stalls on the proxy route at the idle timeout', async () => {
    const stalled = await closedAfter(tp.url, (socket) =>
      socket.write(
        `POST ${connectorsPath}/${connectorId}/proxy HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
          `X-GraFx-Proxy-External-Url: ${trickle.url}/upload\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nabc`,
      ),
    );
    expectIdleCut(stalled.ms);
  });

  it('ends a proxied exchange with a target that trickles at PROXY_EXCHANGE_TIMEOUT_SECONDS', async () => {
    const started = performance.now();
    const response = await tp.call(`${connectorsPath}/${connectorId}/proxy`, {
      token,
      headers: { 'x-grafx-proxy-external-url': `${trickle.url}/slow` },
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThan(2900);
    expect(ms).toBeLessThan(5000);
  });

  it('lets one client address hold a quarter of MAX_CONNECTIONS; one more is answered 429', async () => {
    const held = await Promise.all(Array.from({ length: 10 }, () => hold(tp.url)));
    try {
      const refused = await closedAfter(tp.url, (socket) =>
        socket.write('GET /api/ping HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      expect(refused.ms).toBeLessThan(1000);
      expect(refused.answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(refused.answer).toMatch(/\r\nRetry-After: 1\r\n/i);
      expect(refused.answer).toMatch(/"status":429/);
      // The metrics listener keeps its own count.
      expect((await get(`${tp.platform.metricsUrl}/metrics`)).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await get(`${tp.url}/api/ping`)).status).toBe(200);
  });
});

describe('TRUSTED_PROXIES', () => {
  let trusted: TestPlatform;
  let untrusted: TestPlatform;

  beforeAll(async () => {
    const env = { MAX_CONNECTIONS: '8', RATE_LIMIT_PER_SECOND: '1', IDLE_TIMEOUT_SECONDS: '2' };
    // AUTH_ISSUER empty: the development issuer runs, with its sign-in forms.
    trusted = await startTestPlatform(pglite, {
      ...env,
      TRUSTED_PROXIES: '10.9.9.9, 127.0.0.0/8',
      AUTH_ISSUER: '',
    });
    untrusted = await startTestPlatform(pglite, env);
  });
  afterAll(async () => {
    await trusted?.close();
    await untrusted?.close();
  });

  it('exempts a load balancer from the per-client share and counts its clients by X-Forwarded-For', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => hold(trusted.url)));
    try {
      expect((await get(`${trusted.url}/api/ping`, { 'x-forwarded-for': '192.0.2.1' })).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
    // One request a second, bursts of two, per client: the balancer's clients each have their own budget.
    const statuses = async (forwardedFor: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++)
        out.push((await get(`${trusted.url}/api/ping`, { 'x-forwarded-for': forwardedFor })).status);
      return out;
    };
    expect(await statuses('192.0.2.10')).toEqual([200, 200, 429]);
    expect(await statuses('192.0.2.11')).toEqual([200, 200, 429]);
  });

  it('ignores X-Forwarded-For from an address it does not name', async () => {
    const first = await get(`${untrusted.url}/api/ping`, { 'x-forwarded-for': '192.0.2.20' });
    const second = await get(`${untrusted.url}/api/ping`, { 'x-forwarded-for': '192.0.2.21' });
    const third = await get(`${untrusted.url}/api/ping`, { 'x-forwarded-for': '192.0.2.22' });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    // Two connections (a quarter of 8) per client, loopback included.
    const held = await Promise.all([hold(untrusted.url), hold(untrusted.url)]);
    try {
      const refused = await closedAfter(untrusted.url, (socket) =>
        socket.write('GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      expect(refused.answer).toMatch(/^HTTP\/1\.1 429 /);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it("cuts a body that stalls on the development issuer's forms at the idle timeout", async () => {
    for (const path of ['/oauth/token', '/oauth/authorize']) {
      const stalled = await closedAfter(trusted.url, (socket) =>
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 192.0.2.30\r\n` +
            'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=',
        ),
      );
      expectIdleCut(stalled.ms);
    }
  });
});
