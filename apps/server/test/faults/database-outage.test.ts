/**
 * PostgreSQL goes away under a running server and comes back: meanwhile every request that needs the database
 * answers 503 ProblemDetails (traceId, Retry-After) — never a 500, never a hang — and the server recovers by
 * itself, without a restart. A TCP forwarder between the server and PostgreSQL is cut and restored (the machine's
 * PostgreSQL itself keeps running). PostgreSQL only: PGlite runs in-process and cannot go away.
 */
import { importDataFile, openDatabase } from '@platform/store';
import { type TestBackend, type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_PROD, fixture, SUB_A, USERS } from '../support/fixture.ts';
import { openApiValidator } from '../support/openapi.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';
import { contractViolations, sendRaw } from '../support/raw-http.ts';
import { startTcpForwarder, type TcpForwarder } from '../support/tcp-forwarder.ts';

const postgres = (await testBackends()).find((b) => b.name === 'postgres');

describe.skipIf(!postgres)(
  'the database goes away and comes back (PostgreSQL behind a TCP forwarder)',
  () => {
    let real: TestDatabase;
    let forwarder: TcpForwarder;
    let tp: TestPlatform;
    let token: string;
    let validate: ReturnType<typeof openApiValidator>;

    beforeAll(async () => {
      real = await postgres!.fresh();
      await importDataFile(real, fixture(new Date()));
      const url = new URL(real.databaseUrl!);
      forwarder = await startTcpForwarder(url.hostname, Number(url.port || 5432));
      url.hostname = '127.0.0.1';
      url.port = String(forwarder.port);
      const forwardedUrl = url.toString();
      const forwarded = await openDatabase({ databaseUrl: forwardedUrl, dataDir: real.dataDir, poolSize: 4 });
      // The platform's database handle goes through the forwarder; the real handle stays for clean-up.
      const backend: TestBackend = {
        name: 'postgres',
        source: 'forwarded',
        fresh: async () => ({
          ...forwarded,
          dataDir: real.dataDir,
          databaseUrl: forwardedUrl,
          detach: () => forwarded.close(),
          close: () => forwarded.close(),
        }),
      };
      tp = await startTestPlatform(backend);
      token = await tp.token(USERS.owner, ['platform:read', 'platform:write']);
      validate = openApiValidator(
        (await (await fetch(`${tp.url}/openapi.json`)).json()) as Parameters<typeof openApiValidator>[0],
      );
    });
    afterAll(async () => {
      forwarder?.restore();
      await tp?.close();
      await forwarder?.close();
      await real?.close();
    });

    const requests = () => [
      { method: 'GET', path: '/api/v1/subscriptions', template: '/api/v1/subscriptions' },
      {
        method: 'GET',
        path: `/api/v1/subscriptions/${SUB_A}/renders?groupBy=year&top=2`,
        template: '/api/v1/subscriptions/{subscriptionId}/renders',
      },
      {
        method: 'GET',
        path: `/api/v1/environments/${ENV_PROD}`,
        template: '/api/v1/environments/{environmentId}',
      },
      {
        method: 'GET',
        path: '/grafx/api/v1/environment/acme-prod/connectors',
        template: '/grafx/api/v1/environment/{environment}/connectors',
      },
      {
        method: 'POST',
        path: '/grafx/api/v1/environment/acme-prod/tags',
        template: '/grafx/api/v1/environment/{environment}/tags',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `outage-${Math.random()}` }),
      },
    ];
    const send = (r: { method: string; path: string; headers?: Record<string, string>; body?: string }) =>
      sendRaw(
        tp.url,
        {
          method: r.method,
          path: r.path,
          ...(r.body === undefined ? {} : { body: r.body }),
          headers: { ...r.headers, authorization: `Bearer ${token}` },
        },
        { timeoutMs: 20_000 },
      );

    /** `/api/ready` reads the database probe (every second): it turns within a few seconds. */
    const untilReady = async (expected: number) => {
      const deadline = Date.now() + 15_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await send({ method: 'GET', path: '/api/ready' }))!.status;
        if (status === expected) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status).toBe(expected);
    };

    it('answers 503 ProblemDetails while the database is away and recovers without a restart', async () => {
      for (const r of requests()) expect((await send(r))!.status, r.path).toBeLessThan(300);

      forwarder.cut();
      for (let round = 0; round < 3; round++) {
        for (const r of requests()) {
          const reply = (await send(r))!;
          expect(reply.status, `${r.method} ${r.path}`).toBe(503);
          expect(contractViolations(reply, { allowedStatuses: [503] })).toEqual([]);
          expect(reply.headers['retry-after']).toBeDefined();
          // The OpenAPI document describes the answer: every protected operation lists 503.
          expect(validate(r.template, r.method, 503, JSON.parse(reply.body.toString())), r.path).toEqual([]);
          expect(reply.body.toString()).not.toMatch(/select|insert|ECONN|127\.0\.0\.1|postgres:/i);
        }
      }
      // Requests that need no database still answer; readiness says the database is away.
      expect((await send({ method: 'GET', path: '/api/v1/info' }))!.status).toBe(200);
      expect((await send({ method: 'GET', path: '/api/ping' }))!.status).toBe(200);
      await untilReady(503);

      forwarder.restore();
      await untilReady(200);
      for (const r of requests()) expect((await send(r))!.status, r.path).toBeLessThan(300);
    });

    it('survives the database going away in the middle of a burst of requests', async () => {
      const burst = Array.from({ length: 40 }, (_, i) => requests()[i % 5]!);
      const inFlight = Promise.all(burst.map((r) => send(r)));
      setTimeout(() => forwarder.cut(), 5);
      const replies = await inFlight;
      for (const reply of replies) {
        expect([200, 201, 503]).toContain(reply!.status);
        expect(contractViolations(reply!, { allowedStatuses: [503] })).toEqual([]);
      }
      forwarder.restore();
      await untilReady(200);
      for (const r of requests()) expect((await send(r))!.status, r.path).toBeLessThan(300);
    });
  },
);
