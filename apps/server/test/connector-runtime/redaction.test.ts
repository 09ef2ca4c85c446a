import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Oidc, oidcClients, startOidc } from '@platform/proxy/testing';
import { importDataFile } from '@platform/store';
import { testBackends } from '@platform/store/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBody, connectorsPath, expectStatus, platformClient } from '../proxy-e2e/support.ts';
import { fixture, USERS } from '../support/fixture.ts';
import { type Listening, listen } from '../support/loopback-servers.ts';
import { startTestPlatform, type TestPlatform } from '../support/platform.ts';

const STATIC_KEY = 'server-static-key-7d41c0aa';
const SHARED_VALUE = 'shared-tenant-secret-93be2f';
const owner = { user: USERS.owner };
const server = { user: USERS.contentUser, roles: ['platform:read', 'connector:server'] };
/** Another member of the environment: reads the activity, holds no secret. */
const member = { user: USERS.member, roles: ['platform:read'] };
const TEN_MB = 10 * 1024 * 1024;

/** An upstream that echoes every request header in a 500's body, as careless APIs do, and serves a large text. */
const startEchoUpstream = async (): Promise<Listening> => {
  const large = randomBytes(TEN_MB / 2).toString('hex');
  let refusals = 0;
  return listen((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/echo') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ headers: req.headers }));
    }
    if (req.url === '/refuse-once' && refusals++ === 0) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end('{"error":"token refused"}');
    }
    if (req.url === '/refuse-once') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    if (req.url === '/large') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(large);
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'upstream failed', request: { url: req.url, headers: req.headers } }));
  });
};

/** A data connector whose getModel throws the upstream's error body, and whose getPage throws what `/large` holds. */
const echoingConnector = `
export default class Echoing {
  constructor(runtime) { this.runtime = runtime; }
  async getModel(context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/fails?api_key=query-value', { method: 'GET' });
    throw new ConnectorHttpError(response.status, response.text);
  }
  async getPage(config, context) {
    const response = await this.runtime.fetch(this.runtime.options.base + '/large', { method: 'GET' });
    throw new ConnectorHttpError(500, response.text);
  }
  async query(options, context) {
    // The first answer echoes the token of then; the second makes the proxy renew it.
    const echoed = await this.runtime.fetch(this.runtime.options.base + '/echo', { method: 'GET' });
    await this.runtime.fetch(this.runtime.options.base + '/refuse-once', { method: 'GET' });
    throw new ConnectorHttpError(500, echoed.text);
  }
}`;

/** A connector that fetches a URL that does not parse, carrying a key in its query and credentials in its authority. */
const unparsableUrlConnector = `
export default class Unparsable {
  constructor(runtime) { this.runtime = runtime; }
  async getModel(context) {
    await this.runtime.fetch('http://user:pass-word-1@exa mple.test/path?api_key=unparsed-key-55', { method: 'GET' });
    return { properties: [] };
  }
  async getPage(config, context) { return { data: [], continuationToken: null }; }
}`;

/** A data connector that tells `runtime.logError` what the upstream echoed, and then answers. */
const loggingConnector = `
export default class Logging {
  constructor(runtime) { this.runtime = runtime; }
  async getModel(context) {
    const echoed = await this.runtime.fetch(this.runtime.options.base + '/echo', { method: 'GET' });
    this.runtime.logError('the upstream echoed ' + echoed.text);
    return { properties: [] };
  }
  async getPage(config, context) { return { data: [], continuationToken: null }; }
}`;

type Activity = {
  data: { error: string | null; fetches: { url: string; error?: string }[]; logs: string[] }[];
};

describe.each(await testBackends())('redaction and bounds of what a connector says, on $name', (backend) => {
  let tp: TestPlatform;
  let upstream: Listening;
  let oidc: Oidc;
  const { rest } = platformClient(() => tp);

  const publish = async (script: string, type: 'data' | 'media' = 'data'): Promise<string> => {
    const reply = await rest<{ id: string }>('POST', connectorsPath, {
      ...owner,
      body: connectorBody({ script, type, options: { base: upstream.url } }),
    });
    expectStatus(reply, 201);
    return reply.body.id;
  };
  const activityOf = async (id: string) => {
    const reply = await rest<Activity>('GET', `${connectorsPath}/${id}/activity`, member);
    expectStatus(reply, 200);
    return reply;
  };

  beforeAll(async () => {
    tp = await startTestPlatform(backend, { RUNTIME_MEMORY_MB: '128' });
    await importDataFile(tp.database, fixture(new Date()));
    upstream = await startEchoUpstream();
    oidc = await startOidc([], 'client_secret_basic');
  });
  afterAll(async () => {
    await tp?.close();
    await Promise.all([upstream?.close(), oidc?.close()]);
  });

  it('a server static key and a shared header echoed by the upstream reach neither the 502, the activity nor the log', async () => {
    const id = await publish(echoingConnector);
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
        ...owner,
        body: { usage: 'server', key: 'X-Api-Key', value: STATIC_KEY },
      }),
      200,
    );
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/shared-headers`, {
        ...owner,
        body: { headers: { 'X-Tenant': SHARED_VALUE } },
      }),
      200,
    );
    const failed = await rest<{ detail: string; connectorStatus: number }>(
      'POST',
      `${connectorsPath}/${id}/data/model`,
      { ...server, body: {} },
    );
    expectStatus(failed, 502);
    expect(failed.body.connectorStatus).toBe(500);
    // The upstream's words are there, the secrets are not.
    expect(failed.body.detail).toContain('upstream failed');
    expect(failed.body.detail).toContain('"x-api-key":"***"');
    expect(failed.body.detail).toContain('"x-tenant":"***"');
    const activity = await activityOf(id);
    expect(activity.body.data[0]?.error).toContain('"x-api-key":"***"');
    for (const seen of [failed.text, activity.text, tp.logs.join('\n')]) {
      expect(seen).not.toContain(STATIC_KEY);
      expect(seen).not.toContain(SHARED_VALUE);
    }
  });

  it('a logError message reaches the activity and the server log, the static key echoed in it as ***', async () => {
    const id = await publish(loggingConnector);
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/static`, {
        ...owner,
        body: { usage: 'server', key: 'X-Api-Key', value: STATIC_KEY },
      }),
      200,
    );
    const answered = await rest('POST', `${connectorsPath}/${id}/data/model`, { ...server, body: {} });
    expectStatus(answered, 200);
    const activity = await activityOf(id);
    const logs = activity.body.data[0]?.logs ?? [];
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('the upstream echoed');
    expect(logs[0]).toContain('"x-api-key":"***"');
    const logged = tp.logs
      .join('')
      .split('\n')
      .filter((line) => line.includes('connector logError') && line.includes(id));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('the upstream echoed');
    expect(logged[0]).toContain('\\"x-api-key\\":\\"***\\"');
    for (const seen of [answered.text, activity.text, tp.logs.join('\n')])
      expect(seen).not.toContain(STATIC_KEY);
  });

  it('an OAuth access token echoed by the upstream is redacted', async () => {
    const id = await publish(echoingConnector);
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/oauth-client-credentials`, {
        ...owner,
        body: {
          usage: 'server',
          clientId: oidcClients.clientCredentials.id,
          clientSecret: oidcClients.clientCredentials.secret,
          scope: 'api',
          tokenEndpoint: oidc.tokenEndpoint,
        },
      }),
      200,
    );
    const failed = await rest<{ detail: string }>('POST', `${connectorsPath}/${id}/data/model`, {
      ...server,
      body: {},
    });
    expectStatus(failed, 502);
    const token = oidc.issued.at(-1);
    expect(token).toBeDefined();
    expect(failed.body.detail).toContain('"authorization":"Bearer ***"');
    const activity = await activityOf(id);
    for (const seen of [failed.text, activity.text, tp.logs.join('\n')]) {
      expect(seen).not.toContain(token as string);
      expect(seen).not.toContain(oidcClients.clientCredentials.secret);
    }
  });

  it('a token the target refused and the proxy renewed during the run is redacted too', async () => {
    const id = await publish(echoingConnector, 'media');
    expectStatus(
      await rest('PUT', `${connectorsPath}/${id}/auth/oauth-client-credentials`, {
        ...owner,
        body: {
          usage: 'server',
          clientId: oidcClients.clientCredentials.id,
          clientSecret: oidcClients.clientCredentials.secret,
          scope: 'api',
          tokenEndpoint: oidc.tokenEndpoint,
        },
      }),
      200,
    );
    const issuedBefore = oidc.issued.length;
    const failed = await rest<{ detail: string }>('POST', `${connectorsPath}/${id}/media/query`, {
      ...server,
      body: { query: {} },
    });
    expectStatus(failed, 502);
    const issued = oidc.issued.slice(issuedBefore);
    // The token of the echo, then its renewal after the 401.
    expect(issued).toHaveLength(2);
    expect(failed.body.detail).toContain('"authorization":"Bearer ***"');
    const activity = await activityOf(id);
    for (const seen of [failed.text, activity.text, tp.logs.join('\n')]) {
      for (const token of issued) expect(seen).not.toContain(token);
    }
  });

  it('ten 10 MB errors: each text at most 1 KiB in the 502 and the activity; neither the table nor a read grows by megabytes', async () => {
    const id = await publish(echoingConnector);
    const sizeOf = async () => {
      const result = await tp.database.db.execute<{ size: string | number }>(
        sql`select pg_total_relation_size('connector_activity') as size`,
      );
      const rows = (result as unknown as { rows: { size: string | number }[] }).rows;
      return Number(rows[0]?.size);
    };
    const before = await sizeOf();
    for (let i = 0; i < 10; i++) {
      const failed = await rest<{ detail: string }>('POST', `${connectorsPath}/${id}/data/page`, {
        ...server,
        body: { config: { limit: 5 } },
      });
      expectStatus(failed, 502);
      expect(failed.text.length).toBeLessThan(4 * 1024);
    }
    const activity = await activityOf(id);
    expect(activity.body.data).toHaveLength(10);
    for (const entry of activity.body.data) {
      expect(Buffer.byteLength(entry.error ?? '')).toBeLessThanOrEqual(1024);
    }
    expect(activity.text.length).toBeLessThan(64 * 1024);
    expect((await sizeOf()) - before).toBeLessThan(1024 * 1024);
  });

  it('a URL that does not parse is recorded without its query or user information', async () => {
    const id = await publish(unparsableUrlConnector);
    const reply = await rest('POST', `${connectorsPath}/${id}/data/model`, { ...server, body: {} });
    const activity = await activityOf(id);
    const fetch = activity.body.data[0]?.fetches[0];
    expect(fetch?.url).toContain('exa mple.test/path');
    for (const seen of [reply.text, activity.text, tp.logs.join('\n')]) {
      expect(seen).not.toContain('unparsed-key-55');
      expect(seen).not.toContain('api_key');
      expect(seen).not.toContain('pass-word-1');
    }
  });
});
