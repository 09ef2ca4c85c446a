/**
 * Metric series stay bounded (issue: fail closed, point 3): a deleted connector's series go with it, a target's
 * status outside 100–599 is the class `other`, and the connectors past the documented cap share `connector="other"`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyMetrics, MAX_CONNECTOR_SERIES, metricsWithoutConnectors } from '@platform/proxy';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath, expectStatus, platformClient } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

describe.each((await testBackends()).slice(0, 1))('metric series on $name', (backend) => {
  let tp: TestPlatform;
  let target: Server;
  let targetUrl: string;
  const { rest, proxy } = platformClient(() => tp);
  const operatorMetrics = async () => (await fetch(`${tp.platform.metricsUrl}/metrics`)).text();
  const publish = async () => {
    const published = await rest<{ id: string }>('POST', connectorsPath, {
      user: USERS.owner,
      body: connectorBody({ supportedAuth: [] }),
    });
    expectStatus(published, 201);
    return published.body.id;
  };

  beforeAll(async () => {
    tp = await startTestPlatform(backend, { METRICS_PORT: '0' });
    await importDataFile(tp.database, fixture(new Date()));
    // Answers the status its path names: /s/799 → 799.
    target = createServer((req, res) => {
      res.writeHead(Number(req.url?.split('/')[2] ?? 200), { 'content-type': 'text/plain' });
      res.end('x');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await tp?.close();
    target?.closeAllConnections();
    await new Promise((resolve) => target?.close(resolve));
  });

  it("counts a target's status 600–999 as the class other, and removes a deleted connector's series", async () => {
    const [kept, deleted] = [await publish(), await publish()];
    for (const id of [kept, deleted]) {
      for (const status of [200, 799, 600, 999]) {
        await proxy(id, {
          user: USERS.contentUser,
          roles: ['platform:read'],
          url: `${targetUrl}/s/${status}`,
        });
      }
    }
    const before = await operatorMetrics();
    const classes = [...before.matchAll(/status_class="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(classes)).toEqual(new Set(['2xx', 'other']));
    expect(before).toContain(`connector="${deleted}"`);

    expectStatus(await rest('DELETE', `${connectorsPath}/${deleted}`, { user: USERS.owner }), 204);
    const after = await operatorMetrics();
    expect(after).not.toContain(deleted);
    expect(after).toContain(
      `connector_proxy_upstream_duration_seconds_count{connector="${kept}",status_class="other"} 3`,
    );
    // The sums behind a token keep the deleted connector's history: they count requests, not connectors.
    const token = await tp.token(USERS.owner, ['platform:metrics']);
    const summed = await (await tp.call('/metrics', { token })).text();
    expect(summed).toContain('connector_proxy_upstream_duration_seconds_count{status_class="other"} 6');
    expect(summed).not.toContain('connector=');
  });
});

describe(`the connector cap (${MAX_CONNECTOR_SERIES} connectors with series of their own)`, () => {
  it('puts the connectors past it in connector="other", and a deletion frees a place', async () => {
    const registry = new Registry();
    const metrics = createProxyMetrics(registry);
    const ids = Array.from({ length: MAX_CONNECTOR_SERIES + 100 }, (_, i) => `c-${i}`);
    for (const id of ids) metrics.upstream(id, 200, 0.01);
    const connectors = async () =>
      new Set([...(await registry.metrics()).matchAll(/connector="([^"]+)"/g)].map((m) => m[1]));
    expect((await connectors()).size).toBe(MAX_CONNECTOR_SERIES + 1);
    expect(await registry.metrics()).toContain(
      'connector_proxy_upstream_duration_seconds_count{connector="other",status_class="2xx"} 100',
    );
    metrics.forgetConnector('c-0');
    metrics.upstream('late', 200, 0.01);
    expect(await connectors()).toContain('late');
    expect(await connectors()).not.toContain('c-0');
    expect(await metricsWithoutConnectors(registry)).toContain(
      `connector_proxy_upstream_duration_seconds_count{status_class="2xx"} ${ids.length + 1}`,
    );
  });
});
