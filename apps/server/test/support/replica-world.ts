import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTokenServer } from '@platform/proxy/testing';
import { importDataFile } from '@platform/store';
import type { TestBackend, TestDatabase } from '@platform/store/testing';
import { fixture, USERS } from './fixture.ts';
import { startTestIssuer, type TestIssuer } from './issuer.ts';
import { type ServerChild, startServerChild } from './server-child.ts';

export type TokenServer = Awaited<ReturnType<typeof startTokenServer>>;

/** A proxied call: status, time taken, when it ended (performance.now()), body, `X-GRAFX-UNAUTHORIZED`. */
export type Timed = {
  status: number;
  ms: number;
  endedAt: number;
  text: string;
  unauthorized: string | null;
};

/**
 * Real `platform-server start` processes on one database, as an operator runs replicas: N of them on PostgreSQL
 * (each with its own DATA_DIR), one on PGlite. A real issuer signs the callers' tokens, a loopback target answers
 * proxied calls, and connectors are published and authorized through the environment API.
 */
export type ReplicaWorld = {
  replicas: ServerChild[];
  issuer: TestIssuer;
  targetUrl: string;
  tokenServer(): Promise<TokenServer>;
  /** Publishes a connector in `environment` with client credentials against `tokenEndpoint`; returns its id. */
  oauthConnector(environment: string, tokenEndpoint: string): Promise<string>;
  /** One proxied call through `replica` to the target's `path` (default `/x`), timed to the whole response. */
  proxy(replica: ServerChild, environment: string, connectorId: string, path?: string): Promise<Timed>;
  /** One `GET /api/v1/info`-like authenticated call as `user`, through `replica`. */
  read(replica: ServerChild, token: string): Promise<number>;
  close(): Promise<void>;
};

const json = { 'content-type': 'application/json' };

export const startReplicaWorld = async (
  backend: TestBackend,
  options: { replicas: number; env?: Record<string, string> },
): Promise<ReplicaWorld> => {
  const database: TestDatabase = await backend.fresh();
  await importDataFile(database, fixture(new Date()));
  await database.detach();
  const issuer = await startTestIssuer();
  const tokenServers: TokenServer[] = [];
  const dirs: string[] = [];
  // `/refuse` answers 401 to every token, as a target that never accepts the provider's tokens.
  const target = createServer((req, res) => {
    req.resume();
    res.writeHead(req.url === '/refuse' ? 401 : 200, json);
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const replicas: ServerChild[] = [];
  const count = database.databaseUrl ? options.replicas : 1;
  await Promise.all(
    Array.from({ length: count }, async () => {
      let dataDir = database.dataDir;
      if (database.databaseUrl) {
        dataDir = await mkdtemp(join(tmpdir(), 'replica-'));
        dirs.push(dataDir);
      }
      replicas.push(
        await startServerChild({
          dataDir,
          databaseUrl: database.databaseUrl,
          issuerUrl: issuer.url,
          env: options.env,
        }),
      );
    }),
  );
  const owner = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] })}`;
  const first = replicas[0] as ServerChild;

  return {
    replicas,
    issuer,
    targetUrl,
    async tokenServer() {
      const server = await startTokenServer();
      tokenServers.push(server);
      return server;
    },
    async oauthConnector(environment, tokenEndpoint) {
      const base = `${first.url}/grafx/api/v1/environment/${environment}/connectors`;
      const published = await fetch(base, {
        method: 'POST',
        headers: { authorization: owner, ...json },
        body: JSON.stringify({
          name: 'Replicas',
          version: '1.0.0',
          type: 'data',
          script: 'export default class Connector {}',
          allowedDomains: ['127.0.0.1'],
          supportedAuth: ['oAuth2ClientCredentials'],
        }),
      });
      if (published.status !== 201 && published.status !== 200)
        throw new Error(`publish: ${published.status} ${await published.text()}`);
      const id = ((await published.json()) as { id: string }).id;
      const auth = await fetch(`${base}/${id}/auth/oauth-client-credentials`, {
        method: 'PUT',
        headers: { authorization: owner, ...json },
        body: JSON.stringify({
          usage: 'browser',
          clientId: 'client',
          clientSecret: 'client-secret-value-1234',
          tokenEndpoint,
        }),
      });
      if (auth.status !== 200) throw new Error(`auth: ${auth.status} ${await auth.text()}`);
      return id;
    },
    async proxy(replica, environment, connectorId, path = '/x') {
      const started = performance.now();
      const response = await fetch(
        `${replica.url}/grafx/api/v1/environment/${environment}/connectors/${connectorId}/proxy`,
        { headers: { authorization: owner, 'x-grafx-proxy-external-url': `${targetUrl}${path}` } },
      );
      const text = await response.text();
      const endedAt = performance.now();
      return {
        status: response.status,
        ms: endedAt - started,
        endedAt,
        text,
        unauthorized: response.headers.get('x-grafx-unauthorized'),
      };
    },
    async read(replica, token) {
      const response = await fetch(`${replica.url}/api/v1/subscriptions`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      return response.status;
    },
    async close() {
      await Promise.all(replicas.map((replica) => replica.stop()));
      for (const server of tokenServers) await server.close();
      target.closeAllConnections();
      target.close();
      await issuer.close();
      await database.close();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
};

/**
 * One caller's accepted requests per second, spread round-robin over every replica by `clients` loops sending back
 * to back. Counted from the first 429 (the burst allowance of twice the limit is then spent) for `seconds`, so a
 * slow machine that takes long to spend the burst does not count it as rate.
 */
export const acceptedPerSecond = async (
  world: ReplicaWorld,
  token: string,
  seconds: number,
  clients = 8,
): Promise<{ perSecond: number; refused: number }> => {
  const giveUp = performance.now() + 30_000;
  let from: number | undefined;
  let accepted = 0;
  let refused = 0;
  let turn = 0;
  const running = () => {
    const now = performance.now();
    return from === undefined ? now < giveUp : now < from + seconds * 1000;
  };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (running()) {
        const replica = world.replicas[turn++ % world.replicas.length] as ServerChild;
        const status = await world.read(replica, token);
        if (status !== 200 && status !== 429) throw new Error(`unexpected status ${status}`);
        if (status === 429) from ??= performance.now();
        if (from === undefined || !running()) continue;
        if (status === 200) accepted++;
        else refused++;
      }
    }),
  );
  if (from === undefined) throw new Error('the rate limit never answered 429');
  return { perSecond: accepted / seconds, refused };
};

/**
 * 300 concurrent calls, spread over the replicas, to a new connector whose token endpoint answers 500 after 2 s:
 * the calls' answers and the token requests they made.
 */
export const callFailingEndpoint = async (world: ReplicaWorld) => {
  const failing = await world.tokenServer();
  failing.mode = 'error-500';
  failing.delayMs = 2_000;
  const id = await world.oauthConnector('acme-prod', `${failing.url}/token`);
  const calls = await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      world.proxy(world.replicas[i % world.replicas.length] as ServerChild, 'acme-prod', id),
    ),
  );
  return { calls, tokenRequests: failing.requests.length };
};

/** The p-th percentile (0–100) of `values`. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
