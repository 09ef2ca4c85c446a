import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath, expectStatus, platformClient } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

describe.each((await testBackends()).slice(0, 1))('metrics access on $name', (backend) => {
  let tp: TestPlatform;
  let target: Target;
  let id: string;
  const { rest, proxy } = platformClient(() => tp);
  const metricsWith = async (roles: string[] | undefined) =>
    tp.call('/metrics', roles ? { token: await tp.token(USERS.owner, roles) } : {});

  beforeAll(async () => {
    tp = await startTestPlatform(backend, { METRICS_PORT: '0' });
    await importDataFile(tp.database, fixture(new Date()));
    target = await startTarget();
    const published = await rest<{ id: string }>('POST', connectorsPath, {
      user: USERS.owner,
      body: connectorBody({ supportedAuth: [] }),
    });
    expectStatus(published, 201);
    id = published.body.id;
    const proxied = await proxy(id, {
      user: USERS.contentUser,
      roles: ['platform:read'],
      url: `${target.url}/m`,
    });
    expectStatus(proxied, 200);
  });
  afterAll(async () => {
    await tp?.close();
    await target?.close();
  });

  it('/metrics needs a token with platform:admin or platform:metrics', async () => {
    const anonymous = await metricsWith(undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.headers.get('content-type')).toBe('application/json');
    expect((await metricsWith(['platform:read', 'platform:write'])).status).toBe(403);
    for (const role of ['platform:metrics', 'platform:admin']) {
      const response = await metricsWith([role]);
      expect(response.status, role).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    }
  });

  it('behind the token, connector ids are summed away; the METRICS_PORT listener shows them without a token', async () => {
    const tokenText = await (await metricsWith(['platform:metrics'])).text();
    const count = /^connector_proxy_upstream_duration_seconds_count\{status_class="2xx"\} (\d+)$/m.exec(
      tokenText,
    );
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(1);
    expect(tokenText).not.toContain('connector=');
    expect(tokenText).not.toContain(id);
    expect(tokenText).toContain('http_request');

    expect(new URL(tp.platform.metricsUrl ?? '').hostname).toBe('127.0.0.1');
    const open = await fetch(`${tp.platform.metricsUrl}/metrics`);
    expect(open.status).toBe(200);
    const openText = await open.text();
    expect(openText).toContain(
      `connector_proxy_upstream_duration_seconds_count{connector="${id}",status_class="2xx"} 1`,
    );
    // That listener serves metrics and nothing else.
    const other = await fetch(`${tp.platform.metricsUrl}/api/v1/subscriptions`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toBe('application/json');
  });
});
