/**
 * The server's output stays the server's own when a session ends after a large result: QuickJS leaks objects inside an
 * instance once a `JSON.stringify` of 4 MiB or more ran in a promise job (a call's result of that size is serialized
 * so), and freeing that instance as the session ends made Emscripten write `Aborted(Assertion failed: ...)` on the
 * process's stderr, in no log's format and naming no connector. The real bin, its session ended by idleness.
 */
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';

/**
 * Pages of `limit` rows of about 1 KB each (5,000: 5 MB of JSON, under the 10 MiB a result may be). The continuation
 * token counts the pages this instance served: 1 again is an instance of a new session.
 */
const bigPage = `let served = 0;
export default class BigPage {
  constructor(runtime) { this.runtime = runtime; }
  async getPage(config) {
    await sleep(1);
    const data = Array.from({ length: config.limit }, (_, i) => ({ id: String(i), text: 'x'.repeat(1000) }));
    served += 1;
    return { data, continuationToken: String(served) };
  }
  async getModel() { return { properties: [{ name: 'text', type: 'singleLine' }] }; }
  getConfigurationOptions() { return []; }
  getCapabilities() { return { filtering: false, sorting: false, model: true }; }
}`;

// The engine's messages do not depend on the database: the embedded one is enough.
const [backend] = await testBackends();

describe('a session ended after a 5 MB result', () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let server: ServerChild;
  let authorization: string;

  beforeAll(async () => {
    database = await backend!.fresh();
    await database.detach();
    issuer = await startTestIssuer();
    authorization = `Bearer ${await issuer.sign({ sub: 'demo|owner', roles: ['platform:read', 'platform:write'], expiresIn: 600 })}`;
    server = await startServerChild({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      issuerUrl: issuer.url,
      env: { DEMO_DATA: 'true', LOG_LEVEL: 'warn', RUNTIME_SESSION_IDLE_SECONDS: '1' },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
    await database?.close();
  });

  it('is answered, and its instance freed without a line on stderr', async () => {
    const connectors = `${server.url}/grafx/api/v1/environment/acme-prod/connectors`;
    const published = await fetch(connectors, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Big page',
        type: 'data',
        version: '1.0.0',
        allowedDomains: ['api.example.com'],
        script: bigPage,
      }),
    });
    expect(published.status, await published.clone().text()).toBe(201);
    const { id } = (await published.json()) as { id: string };
    const page = (limit: number) =>
      fetch(`${connectors}/${id}/data/page`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ usage: 'browser', config: { limit } }),
      });
    const big = await page(5000);
    expect(big.status).toBe(200);
    const body = (await big.json()) as { data: unknown[]; continuationToken: string };
    expect(body.data).toHaveLength(5000);
    expect(body.continuationToken).toBe('1');
    // Idle for a second, the session is ended by the pool's next look (every 250 ms) and its instance freed.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // The next call runs in a new session's instance: the old one was freed before it (the worker's order).
    const next = await page(1);
    expect(next.status).toBe(200);
    expect(((await next.json()) as { continuationToken: string }).continuationToken).toBe('1');
    expect(server.output.join('')).not.toMatch(/Aborted|Assertion failed/);
  }, 60_000);
});
