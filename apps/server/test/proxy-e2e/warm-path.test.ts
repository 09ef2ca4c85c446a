/**
 * A warm request reads nothing from the database (docs/configuration.md, "Processes"): the token, the caller's
 * access, the connector's configuration and credentials, and the environment API's and admin API's reads are
 * answered from memory until a change. Proven by the statements the server sends to PostgreSQL through a forwarder:
 * none while the same requests repeat, and some again after a change.
 */
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUB_A, USERS } from '../support/fixture.ts';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { seededDatabase } from '../support/seeded.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';
import { startTcpForwarder, type TcpForwarder } from '../support/tcp-forwarder.ts';
import { connectorBody, connectorsPath } from './support.ts';

const postgres = (await testBackends()).find((backend) => backend.name === 'postgres');
/**
 * Statements no request sends: the availability probe and the change watch's liveness probe ask `select 1` on
 * connections of their own, and every 2 s the replica's heartbeat refreshes its row of `platform_replicas` (seen in
 * the 20 rounds below when a busy machine makes them last longer than that).
 */
const requestStatements = (statements: readonly string[]) =>
  statements.filter((text) => text !== 'select 1' && !text.includes('platform_replicas'));

describe.skipIf(!postgres)('a warm request on PostgreSQL', () => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let target: Target;
  let forwarder: TcpForwarder;
  let server: ServerChild;

  beforeAll(async () => {
    database = await seededDatabase(postgres!);
    issuer = await startTestIssuer();
    target = await startTarget();
    const url = new URL(database.databaseUrl!);
    forwarder = await startTcpForwarder(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${forwarder.port}`;
    server = await startServerChild({
      dataDir: database.dataDir,
      databaseUrl: url.href,
      issuerUrl: issuer.url,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await forwarder.close();
    await target.close();
    await issuer.close();
    await database.close();
  });

  it('sends nothing to the database, until a change', async () => {
    const token = await issuer.sign({ sub: USERS.owner, roles: ['platform:read', 'platform:write'] });
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(init.headers as Record<string, string>),
        },
      });
      const text = await response.text();
      expect(response.status, text).toBeLessThan(300);
      return text === '' ? {} : (JSON.parse(text) as { id?: string });
    };
    const { id } = await call(connectorsPath, { method: 'POST', body: JSON.stringify(connectorBody()) });
    await call(`${connectorsPath}/${id}/auth/static`, {
      method: 'PUT',
      body: JSON.stringify({ usage: 'browser', key: 'X-Key', value: 'v' }),
    });
    const template = await call(connectorsPath.replace('/connectors', '/templates'), {
      method: 'POST',
      body: JSON.stringify({ name: 'warm' }),
    });
    const requests = async () => {
      await call(`${connectorsPath}/${id}/proxy`, {
        headers: { 'x-grafx-proxy-external-url': `${target.url}/w` },
      });
      await call(connectorsPath);
      await call(`${connectorsPath}/${id}`);
      await call(`${connectorsPath.replace('/connectors', '/templates')}/${template.id}`);
      await call(`/api/v1/subscriptions/${SUB_A}`);
    };
    // The database's notifications of the writes above reach the server on their own connection, and on a busy
    // machine one can land after the first round has filled the caches, emptying them again: warm up until a whole
    // round reads nothing (the notifications are then in), at most ten rounds.
    let rounds = 0;
    let quiet = false;
    while (!quiet && rounds < 10) {
      const mark = forwarder.statements().length;
      await requests();
      rounds++;
      quiet = requestStatements(forwarder.statements().slice(mark)).length === 0;
    }
    expect(quiet, `no round of ${rounds} read nothing`).toBe(true);

    const before = forwarder.statements().length;
    for (let i = 0; i < 20; i++) await requests();
    expect(requestStatements(forwarder.statements().slice(before))).toEqual([]);
    expect(target.requests.filter((request) => request.headers['x-key'] === 'v')).toHaveLength(rounds + 20);

    // A change drops what was kept: the next requests read again.
    await call(`${connectorsPath}/${id}`, { method: 'PATCH', body: JSON.stringify({ enabled: true }) });
    const afterChange = forwarder.statements().length;
    await requests();
    expect(requestStatements(forwarder.statements().slice(afterChange)).length).toBeGreaterThan(5);
  });
});
