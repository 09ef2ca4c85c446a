/**
 * `kill -9` of the real `platform-server start` process while render-event batches are being ingested and a
 * connector's authorization is being changed, then a restart on the same database: no partial batch (the total is
 * a whole number of batches), no lost acknowledged batch (every 202 is counted), and the authorization is the last
 * acknowledged one or the one in flight — whole, never a mix. PostgreSQL when TEST_DATABASE_URL is set, else PGlite.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importDataFile } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_DEV, fixture, USERS } from '../support/fixture.ts';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';

const backends = await testBackends();
const backend = backends.find((b) => b.name === 'postgres') ?? backends[0]!;
const BATCH = 250;
const CLIENTS = 4;
const DAY = new Date(
  Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 10, 12),
);
const day = DAY.toISOString().slice(0, 10);

describe(`kill -9 of the server during ingest and an authorization change (${backend.name})`, () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let server: ServerChild | undefined;
  let target: Server;
  let targetUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    database = await backend.fresh();
    await importDataFile(database, fixture(new Date()));
    await database.detach();
    issuer = await startTestIssuer();
    target = createServer((req, res) => {
      seen.push(String(req.headers['x-api-key'] ?? ''));
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ key: req.headers['x-api-key'] ?? null }));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.stop();
    target?.close();
    await issuer?.close();
    await database?.close();
  });

  it('loses no acknowledged write and keeps no partial one', async () => {
    const start = () =>
      startServerChild({
        dataDir: database.dataDir,
        databaseUrl: database.databaseUrl,
        issuerUrl: issuer.url,
      });
    server = await start();
    const owner = `Bearer ${await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] })}`;
    const ingest = `Bearer ${await issuer.sign({ sub: 'ingest|kill9', roles: ['platform:ingest'] })}`;
    const json = { 'content-type': 'application/json' };
    const base = '/grafx/api/v1/environment/acme-prod/connectors';
    const published = await fetch(`${server.url}${base}`, {
      method: 'POST',
      headers: { authorization: owner, ...json },
      body: JSON.stringify({
        name: 'Kill 9',
        version: '1.0.0',
        type: 'data',
        script: 'export default class Connector {}',
        allowedDomains: ['127.0.0.1'],
        supportedAuth: ['staticKey'],
      }),
    });
    const connectorId = ((await published.json()) as { id: string }).id;

    const url = server.url;
    let stop = false;
    const ended: string[] = [];
    const ingestion = { sent: 0, acknowledged: 0 };
    const ingestClient = async () => {
      while (!stop) {
        ingestion.sent++;
        try {
          const response = await fetch(`${url}/api/v1/render-events`, {
            method: 'POST',
            headers: { authorization: ingest, ...json },
            body: JSON.stringify(
              Array.from({ length: BATCH }, (_, i) => ({
                environmentGuid: ENV_DEV,
                kind: i % 2 ? 'Pdf' : 'Image',
                watermarked: false,
                at: DAY.toISOString(),
              })),
            ),
          });
          const text = await response.text();
          if (response.status === 202) ingestion.acknowledged++;
          else throw new Error(`ingest answered ${response.status}: ${text}`);
        } catch (error) {
          ended.push(`ingest: ${String(error)}`);
          return; // the server is gone
        }
      }
    };
    const auth = { lastAcknowledged: -1, inFlight: -1 };
    const authClient = async () => {
      for (let i = 0; !stop; i++) {
        auth.inFlight = i;
        try {
          const response = await fetch(`${url}${base}/${connectorId}/auth/static`, {
            method: 'PUT',
            headers: { authorization: owner, ...json },
            body: JSON.stringify({
              usage: 'browser',
              key: 'X-Api-Key',
              value: `value-${i}`,
              name: `auth ${i}`,
            }),
          });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`auth answered ${response.status}`);
          auth.lastAcknowledged = i;
        } catch (error) {
          ended.push(`auth: ${String(error)}`);
          return;
        }
      }
    };
    const clients = [...Array.from({ length: CLIENTS }, ingestClient), authClient()];
    // Let acknowledged writes pile up, then kill in the middle of the traffic.
    while (ingestion.acknowledged < 8 || auth.lastAcknowledged < 5) {
      // A client that stopped before the kill would leave this loop waiting for the test's timeout.
      if (ended.length > 0) throw new Error(`a client stopped before the kill: ${ended.join('; ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await server.kill9();
    stop = true;
    await Promise.all(clients);
    expect(ingestion.acknowledged).toBeGreaterThan(0);

    server = await start();
    const renders = await fetch(
      `${server.url}/api/v1/environments/${ENV_DEV}/renders?groupBy=month&startDate=${day}&endDate=${day}`,
      { headers: { authorization: owner } },
    );
    expect(renders.status).toBe(200);
    const groups = (await renders.json()) as { totalRenders: number }[];
    const total = groups.reduce((sum, g) => sum + g.totalRenders, 0);
    // Whole batches only, every acknowledged one, none that was never sent.
    expect(total % BATCH, `total ${total}`).toBe(0);
    expect(total / BATCH).toBeGreaterThanOrEqual(ingestion.acknowledged);
    expect(total / BATCH).toBeLessThanOrEqual(ingestion.sent);

    const list = await fetch(`${server.url}${base}/${connectorId}/auth`, {
      headers: { authorization: owner },
    });
    const entries = (await list.json()) as { usage: string; type: string; name: string }[];
    expect(entries.filter((e) => e.usage === 'browser')).toHaveLength(1);
    const entry = entries.find((e) => e.usage === 'browser')!;
    const proxied = await fetch(`${server.url}${base}/${connectorId}/proxy`, {
      headers: { authorization: owner, 'x-grafx-proxy-external-url': `${targetUrl}/check` },
    });
    expect(proxied.status).toBe(200);
    const { key } = (await proxied.json()) as { key: string };
    // The stored value is the last acknowledged one or the one in flight, and its name belongs to the same write.
    const allowed = [auth.lastAcknowledged, auth.inFlight];
    expect(allowed.map((i) => `value-${i}`)).toContain(key);
    expect(entry.name).toBe(`auth ${key.slice('value-'.length)}`);
  }, 90_000);
});
