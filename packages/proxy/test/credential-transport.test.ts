/**
 * Where credentials go (docs/connector-proxy.md): the static key, a bearer token and shared headers travel only
 * over https and only to a port `allowedDomains` names. The proxy runs without PROXY_ALLOW_PRIVATE_NETWORKS and
 * with loopback counted as public, so the loopback peers below stand for targets on the internet.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { SecretBox } from '@platform/store';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertConnector,
  newSecrets,
  seedEnvironment,
  setAuth,
  setSharedHeaders,
} from './support/database.ts';
import { type Harness, startProxy } from './support/harness.ts';
import { startTarget, type Target } from './support/servers.ts';

const STATIC_VALUE = 'static-secret-over-clear-text';
const SHARED_VALUE = 'shared-secret-over-clear-text';

/** A TCP peer that only counts connections: a TLS client that reaches it was let through by the proxy. */
const countingPeer = async () => {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections: () => sockets.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe.each((await testBackends()).slice(0, 1))('where credentials go, on $name', (backend) => {
  let database: TestDatabase;
  let secrets: SecretBox;
  let target: Target;
  let harness: Harness;
  let peer: Awaited<ReturnType<typeof countingPeer>>;

  beforeAll(async () => {
    database = await backend.fresh();
    secrets = newSecrets();
    await seedEnvironment(database);
    target = await startTarget();
    peer = await countingPeer();
    harness = await startProxy(database, secrets, {
      allowPrivateNetworks: false,
      isPublicAddress: () => true,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await target?.close();
    await peer?.close();
    await database?.close();
  });

  it('refuses 403, sending nothing, a static key or shared headers over plain http', async () => {
    const keyed = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, keyed, 'browser', 'staticKey', {
      key: 'X-Api-Key',
      value: STATIC_VALUE,
    });
    const shared = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setSharedHeaders(database, secrets, shared, { 'X-Tenant': SHARED_VALUE });
    const before = target.requests.length;
    for (const id of [keyed, shared]) {
      const refused = await harness.call(id, { url: `${target.url}/clear` });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({
        status: 403,
        detail: expect.stringContaining('sent over https only'),
        traceId: expect.any(String),
      });
    }
    expect(target.requests.length).toBe(before);
    // A connector with nothing to inject still reaches an http target.
    const plain = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    expect((await harness.call(plain, { url: `${target.url}/clear` })).status).toBe(200);
    expect(target.requests.length).toBe(before + 1);
    expect(JSON.stringify(target.requests)).not.toContain(STATIC_VALUE);
    expect(JSON.stringify(target.requests)).not.toContain(SHARED_VALUE);
  });

  it('refuses such a target before it asks the token endpoint for a token', async () => {
    // The token endpoint is the counting peer: a token request would be a connection to it.
    const oauth = await insertConnector(database, { allowedDomains: ['127.0.0.1', 'localhost'] });
    await setAuth(database, secrets, oauth, 'browser', 'oAuth2ClientCredentials', {
      clientId: 'client',
      clientSecret: 'client-secret',
      tokenEndpoint: `https://127.0.0.1:${peer.port}/token`,
    });
    const before = peer.connections();
    const clear = await harness.call(oauth, { url: `${target.url}/clear` });
    expect(clear.status).toBe(403);
    expect(JSON.parse(clear.text).detail).toContain('sent over https only');
    expect(peer.connections()).toBe(before);
  });

  it('sends credentials only to the port allowedDomains names (443 when the entry names none)', async () => {
    const unnamed = await insertConnector(database, { allowedDomains: ['127.0.0.1'] });
    await setAuth(database, secrets, unnamed, 'browser', 'staticKey', {
      key: 'X-Api-Key',
      value: STATIC_VALUE,
    });
    const refused = await harness.call(unnamed, { url: `https://127.0.0.1:${peer.port}/mail` });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).detail).toContain(`port ${peer.port} of 127.0.0.1 is not one`);
    expect(peer.connections()).toBe(0);

    const named = await insertConnector(database, { allowedDomains: [`127.0.0.1:${peer.port}`] });
    await setAuth(database, secrets, named, 'browser', 'staticKey', {
      key: 'X-Api-Key',
      value: STATIC_VALUE,
    });
    // Let through: the peer is reached (and, speaking no TLS, ends as 502).
    const sent = await harness.call(named, { url: `https://127.0.0.1:${peer.port}/api` });
    expect(sent.status).toBe(502);
    expect(peer.connections()).toBe(1);
    // The named port does not open the default one, nor plain http on the named port.
    const other = await harness.call(named, { url: 'https://127.0.0.1/api' });
    expect(other.status).toBe(403);
    const clear = await harness.call(named, { url: `http://127.0.0.1:${peer.port}/api` });
    expect(clear.status).toBe(403);
    expect(peer.connections()).toBe(1);
  });
});
