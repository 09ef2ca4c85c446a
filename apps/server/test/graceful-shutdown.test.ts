/**
 * SIGTERM to a real `platform-server start` (docs/deployment.md, "Shutdown"): it stops accepting at once, answers
 * the requests in flight (here, two whose bodies are still arriving) without a 5xx and with `Connection: close`,
 * releases the data folder and exits 0.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDataFile, migrate, openDatabase } from '@platform/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath } from './proxy-e2e/support.ts';
import { fixture, SUB_A, USERS } from './support/fixture.ts';
import { startTestIssuer, type TestIssuer } from './support/issuer.ts';
import { listen } from './support/loopback-servers.ts';
import { type ServerChild, startServerChild } from './support/server-child.ts';

/**
 * For one describe block: `platform-server start` on a fresh embedded folder holding the fixture, trusting a test
 * issuer; killed and removed after the block.
 */
const serverOnFixture = (prefix: string, env: Record<string, string> = {}) => {
  const state = {
    dataDir: '',
    issuer: undefined as unknown as TestIssuer,
    server: undefined as unknown as ServerChild,
  };
  beforeAll(async () => {
    state.dataDir = await mkdtemp(join(tmpdir(), prefix));
    const database = await openDatabase({ dataDir: state.dataDir });
    await migrate(database);
    await importDataFile(database, fixture(new Date()));
    await database.close();
    state.issuer = await startTestIssuer();
    state.server = await startServerChild({
      dataDir: state.dataDir,
      databaseUrl: undefined,
      issuerUrl: state.issuer.url,
      env,
    });
  });
  afterAll(async () => {
    await state.server?.kill9();
    await state.issuer?.close();
    if (state.dataDir) await rm(state.dataDir, { recursive: true, force: true });
  });
  return state;
};

describe('platform-server on SIGTERM', () => {
  const state = serverOnFixture('shutdown-');

  /** Whether a raw HTTP/1.1 answer holds its head and as many body bytes as its Content-Length says. */
  const complete = (answer: string): boolean => {
    const end = answer.indexOf('\r\n\r\n');
    if (end === -1) return false;
    const length = /\r\ncontent-length: (\d+)\r\n/i.exec(answer.slice(0, end + 2))?.[1];
    return answer.length - (end + 4) >= Number(length ?? 0);
  };

  /** A PUT whose body is sent in two parts, so that it stays in flight until `finish`. */
  const startPut = async (token: string) => {
    const body = JSON.stringify(['shutdown.example']);
    const socket: Socket = connect(Number(new URL(state.server.url).port), '127.0.0.1');
    socket.on('error', () => {});
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    const ended = once(socket, 'close');
    socket.write(
      `PUT /api/v1/subscriptions/${SUB_A}/external-idp-domains HTTP/1.1\r\nHost: x\r\n` +
        `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, 5),
    );
    return {
      finish: () => socket.write(body.slice(5)),
      /** The whole answer (head and its Content-Length of body), waited for: a busy machine may take a while. */
      answered: async () => {
        const deadline = Date.now() + 10_000;
        while (!complete(answer) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return answer;
      },
      ended: async () => {
        await ended;
        return answer;
      },
    };
  };

  it('finishes the requests in flight, refuses new connections, releases the folder and exits 0', async () => {
    const { dataDir, issuer, server } = state;
    const token = await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] });
    // Three requests in flight, the first of which ends before the shutdown: the two left must both be told.
    const first = await startPut(token);
    const second = await startPut(token);
    const third = await startPut(token);
    await new Promise((resolve) => setTimeout(resolve, 200));
    first.finish();
    expect(await first.answered()).toMatch(/^HTTP\/1\.1 200 /);
    expect(await first.answered()).not.toMatch(/\r\nconnection: close\r\n/i);

    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    // No longer accepting, moments after the signal (how many depends on how busy the machine is).
    const refusing = async () => {
      for (const deadline = Date.now() + 5_000; Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        try {
          await fetch(`${server.url}/api/ping`);
        } catch {
          return true;
        }
      }
      return false;
    };
    expect(await refusing()).toBe(true);
    // The requests in flight are still answered, each with Connection: close.
    for (const request of [second, third]) {
      request.finish();
      const answer = await request.ended();
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    }

    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(existsSync(join(dataDir, 'owner.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    // The folder is free: another server takes it at once.
    const next = await startServerChild({ dataDir, databaseUrl: undefined, issuerUrl: issuer.url });
    await next.stop();
    expect(next.child.exitCode).toBe(0);
  });
});

describe('platform-server on SIGTERM while a proxied target is slow', () => {
  const state = serverOnFixture('shutdown-slow-', { PROXY_ALLOW_PRIVATE_NETWORKS: 'true' });

  it('cuts the exchange at the grace period and exits then, releasing the folder', async () => {
    const { dataDir, issuer, server } = state;
    // A target that answers after 30 s: longer than the grace period of 10 s.
    const target = await listen((_req, res) => {
      setTimeout(() => res.end('late'), 30_000).unref();
    });
    try {
      const token = await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] });
      const published = await fetch(`${server.url}${connectorsPath}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(connectorBody()),
      });
      expect(published.status).toBe(201);
      const { id } = (await published.json()) as { id: string };
      const proxied = fetch(`${server.url}${connectorsPath}/${id}/proxy`, {
        headers: { authorization: `Bearer ${token}`, 'x-grafx-proxy-external-url': `${target.url}/slow` },
      }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exited = once(server.child, 'exit');
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      const seconds = (performance.now() - signalled) / 1000;
      expect(code).toBe(0);
      // The grace period, and some for a busy machine: not the target's 30 s.
      expect(seconds).toBeLessThan(20);
      expect(await proxied).toBeInstanceOf(Error);
      expect(existsSync(join(dataDir, 'owner.lock'))).toBe(false);
    } finally {
      await target.close();
    }
  }, 60_000);
});
