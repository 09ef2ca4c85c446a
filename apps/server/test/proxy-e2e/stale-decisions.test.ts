/**
 * The decisions a request needs (the caller's environment access and roles, the connector's configuration and
 * credentials) are kept in memory until a change: these tests prove no kept decision outlives its change. Each
 * change takes effect on the very next request of the replica that made it, and within 2 s on another replica
 * (two `platform-server start` processes on one PostgreSQL database; the embedded default runs one process).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_PROD, ENV_SANDBOX, fixture, USERS } from '../support/fixture.ts';
import { startTestIssuer, type TestIssuer } from '../support/issuer.ts';
import { startTarget, type Target } from '../support/loopback-servers.ts';
import { seededDatabase } from '../support/seeded.ts';
import { type ServerChild, startServerChild } from '../support/server-child.ts';
import { connectorBody, connectorsPath } from './support.ts';

const OTHER_REPLICA_MS = 2000;
const OPERATOR = 'ops|operator';
/** The second replica's own data folder (PostgreSQL only). */
let spareDir: string | undefined;

describe.each(await testBackends())('a kept decision never outlives its change on $name', (backend) => {
  let database: TestDatabase;
  let issuer: TestIssuer;
  let target: Target;
  let replicas: ServerChild[];

  beforeAll(async () => {
    database = await seededDatabase(backend);
    issuer = await startTestIssuer();
    target = await startTarget();
    const start = (dataDir: string) =>
      startServerChild({ dataDir, databaseUrl: database.databaseUrl, issuerUrl: issuer.url });
    // PGlite is one process's database: the embedded default has one replica. Replicas on PostgreSQL each have a
    // data folder of their own, as on separate machines (each announces itself in its own server.json).
    if (database.databaseUrl) {
      spareDir = await mkdtemp(join(tmpdir(), 'replica-'));
      replicas = await Promise.all([start(database.dataDir), start(spareDir)]);
    } else {
      replicas = [await start(database.dataDir)];
    }
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    if (spareDir) await rm(spareDir, { recursive: true, force: true });
    await target.close();
    await issuer.close();
    await database.close();
  });

  const tokens = new Map<string, Promise<string>>();
  const tokenOf = (user: string) => {
    let token = tokens.get(user);
    if (!token) {
      const roles = ['platform:read', 'platform:write', ...(user === OPERATOR ? ['platform:admin'] : [])];
      token = issuer.sign({ sub: user, roles, expiresIn: 3600 });
      tokens.set(user, token);
    }
    return token;
  };
  const call = async (
    replica: ServerChild,
    user: string,
    method: string,
    path: string,
    init: RequestInit = {},
  ) => {
    const response = await fetch(`${replica.url}${path}`, {
      ...init,
      method,
      headers: {
        authorization: `Bearer ${await tokenOf(user)}`,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as { id?: string }) };
  };
  const proxy = async (replica: ServerChild, user: string, connectorId: string) => {
    const before = target.requests.length;
    const { status } = await call(replica, user, 'GET', `${connectorsPath}/${connectorId}/proxy`, {
      headers: { 'x-grafx-proxy-external-url': `${target.url}/x` },
    });
    const keys = target.requests.slice(before).map((request) => request.headers['x-key'] ?? '');
    return status === 200 ? `200 ${keys.join()}` : String(status);
  };
  const expectCall = async (status: number, ...args: Parameters<typeof call>) => {
    const reply = await call(...args);
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    return reply;
  };

  /**
   * The replica that made the change answers `expected` on its very next request; every other one within 2 s
   * (asked every 50 ms: reads change nothing, so an answer that turns is the change arriving).
   */
  const takesEffect = async (expected: string, ask: (replica: ServerChild) => Promise<string>) => {
    const [maker, ...others] = replicas;
    expect(await ask(maker!)).toBe(expected);
    const changed = Date.now();
    for (const replica of others) {
      let answer = await ask(replica);
      while (answer !== expected && Date.now() - changed < OTHER_REPLICA_MS) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        answer = await ask(replica);
      }
      expect(answer, `another replica ${Date.now() - changed} ms after the change`).toBe(expected);
    }
  };
  /** Every replica answers `expected` now: the decision is kept in each before the change. */
  const everywhere = async (expected: string, ask: (replica: ServerChild) => Promise<string>) => {
    for (const replica of replicas) expect(await ask(replica)).toBe(expected);
  };

  /** Replaces the members of the fixture's first subscription (a data-file import, as an operator makes it). */
  const replaceMembers = async (members: unknown[]) => {
    const subscription = { ...fixture(new Date()).subscriptions[0]!, members };
    await expectCall(200, replicas[0]!, OPERATOR, 'POST', '/api/v1/imports', {
      body: JSON.stringify({
        users: [{ id: OPERATOR, email: 'ops@acme.example' }],
        subscriptions: [subscription],
      }),
    });
  };

  it('an authorization replaced, a connector disabled, enabled and deleted', async () => {
    const published = await expectCall(201, replicas[0]!, USERS.owner, 'POST', connectorsPath, {
      body: JSON.stringify(connectorBody()),
    });
    const id = published.body!.id!;
    const setKey = (value: string) =>
      expectCall(200, replicas[0]!, USERS.owner, 'PUT', `${connectorsPath}/${id}/auth/static`, {
        body: JSON.stringify({ usage: 'browser', key: 'X-Key', value }),
      });
    const asContentUser = (replica: ServerChild) => proxy(replica, USERS.contentUser, id);

    await setKey('v-one');
    await everywhere('200 v-one', asContentUser);
    await setKey('v-two');
    await takesEffect('200 v-two', asContentUser);

    const setEnabled = (enabled: boolean) =>
      expectCall(200, replicas[0]!, USERS.owner, 'PATCH', `${connectorsPath}/${id}`, {
        body: JSON.stringify({ enabled }),
      });
    await setEnabled(false);
    await takesEffect('403', asContentUser);
    await setEnabled(true);
    await takesEffect('200 v-two', asContentUser);

    const listed = async (replica: ServerChild) => {
      const { status, body } = await call(replica, USERS.contentUser, 'GET', connectorsPath);
      const data = (body as unknown as { data: { id: string }[] }).data ?? [];
      return `${status} ${data.some((c) => c.id === id) ? 'listed' : 'absent'}`;
    };
    await everywhere('200 listed', listed);
    await expectCall(204, replicas[0]!, USERS.owner, 'DELETE', `${connectorsPath}/${id}`);
    await takesEffect('404', asContentUser);
    await takesEffect('200 absent', listed);
  });

  it('a role changed and a membership removed', async () => {
    const published = await expectCall(201, replicas[0]!, USERS.owner, 'POST', connectorsPath, {
      body: JSON.stringify(connectorBody()),
    });
    const id = published.body!.id!;
    const members = fixture(new Date()).subscriptions[0]!.members;
    const asUser = (user: string) => (replica: ServerChild) => proxy(replica, user, id);
    // A write the EnvironmentAdmin may make and a ContentUser may not; it changes nothing.
    const writeAsEnvAdmin = (replica: ServerChild) =>
      call(replica, USERS.envAdmin, 'PATCH', `${connectorsPath}/${id}`, {
        body: JSON.stringify({ enabled: true }),
      }).then((reply) => String(reply.status));

    await everywhere('200 ', asUser(USERS.contentUser));
    await everywhere('200 ', asUser(USERS.member));
    await everywhere('200', writeAsEnvAdmin);

    // The content user's role moves to another environment; the environment admin becomes a content user.
    await replaceMembers(
      members.map((member) =>
        member.userId === USERS.contentUser
          ? { ...member, environmentRoles: { [ENV_SANDBOX]: ['ContentUser'] } }
          : member.userId === USERS.envAdmin
            ? { ...member, environmentRoles: { [ENV_PROD]: ['ContentUser'] } }
            : member,
      ),
    );
    await takesEffect('404', asUser(USERS.contentUser));
    // The import's one notification dropped every kept decision: once another replica answers the change above,
    // it answers this one too (a write is not asked before, as a stale success would itself drop the cache).
    await takesEffect('403', writeAsEnvAdmin);
    await takesEffect('200 ', asUser(USERS.envAdmin));

    await replaceMembers(members.filter((member) => member.userId !== USERS.member));
    await takesEffect('404', asUser(USERS.member));
    await takesEffect('404', (replica) =>
      call(replica, USERS.member, 'GET', connectorsPath).then((reply) => String(reply.status)),
    );
  });
});
