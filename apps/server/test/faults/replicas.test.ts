/**
 * Three `platform-server` processes on one PostgreSQL (issue "many replicas, a noisy tenant"): one environment's hung
 * token endpoints do not delay another environment's first proxied call on any replica; a token endpoint that fails
 * after 2 s fails every waiting caller on every replica at once, with one token request; the per-user rate limit
 * holds platform-wide within ±20 %. Skipped without PostgreSQL (the embedded database is one process).
 */
import { testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS } from '../support/fixture.ts';
import {
  acceptedPerSecond,
  callFailingEndpoint,
  type ReplicaWorld,
  startReplicaWorld,
} from '../support/replica-world.ts';

const postgres = (await testBackends()).find((backend) => backend.name === 'postgres');
const TOKEN_TIMEOUT_SECONDS = 5;

describe.skipIf(!postgres)('three replicas on one PostgreSQL: token endpoints', () => {
  let world: ReplicaWorld;
  beforeAll(async () => {
    world = await startReplicaWorld(postgres!, {
      replicas: 3,
      env: { TOKEN_TIMEOUT_SECONDS: String(TOKEN_TIMEOUT_SECONDS), RATE_LIMIT_PER_SECOND: '0' },
    });
  }, 120_000);
  afterAll(async () => world?.close());

  it("hung token endpoints of one environment leave another environment's first calls alone", async () => {
    const hung = await world.tokenServer();
    hung.mode = 'hang';
    const healthy = await world.tokenServer();
    const stalled = await Promise.all(
      Array.from({ length: 6 }, () => world.oauthConnector('acme-prod', `${hung.url}/token`)),
    );
    const others = await Promise.all(
      world.replicas.map(() => world.oauthConnector('acme-sandbox', `${healthy.url}/token`)),
    );
    const hanging = Promise.all(
      stalled.flatMap((id) =>
        world.replicas.flatMap((replica) => [1, 2, 3].map(() => world.proxy(replica, 'acme-prod', id))),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const firsts = await Promise.all(
      world.replicas.map((replica, i) => world.proxy(replica, 'acme-sandbox', others[i] as string)),
    );
    const stalledCalls = await hanging;
    for (const first of firsts) {
      expect(first.status).toBe(200);
      // Behind a hung fetch it would wait out TOKEN_TIMEOUT_SECONDS (the bench measures the difference: ≤ 50 ms).
      expect(first.ms).toBeLessThan(TOKEN_TIMEOUT_SECONDS * 1000);
    }
    for (const call of stalledCalls) {
      expect(call.status).toBe(504);
      expect(call.ms).toBeLessThan(TOKEN_TIMEOUT_SECONDS * 1000 + 2_000);
    }
    expect(hung.requests).toHaveLength(stalled.length);
  });

  it('a token endpoint that answers 500 after 2 s: 300 calls over three replicas, one token request, all answered together', async () => {
    const { calls, tokenRequests } = await callFailingEndpoint(world);
    for (const call of calls) {
      expect(call.status).toBe(502);
      // Not 2 / 4 / 6 s replica after replica: every waiter has the failure when it happens.
      expect(call.ms).toBeLessThan(5_000);
    }
    expect(tokenRequests).toBe(1);
  });
});

describe.skipIf(!postgres)('three replicas on one PostgreSQL: rate limit', () => {
  const LIMIT = 20;
  let world: ReplicaWorld;
  beforeAll(async () => {
    world = await startReplicaWorld(postgres!, {
      replicas: 3,
      env: { RATE_LIMIT_PER_SECOND: String(LIMIT) },
    });
    // Every replica has seen the others' heartbeats (every 2 s).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
  }, 120_000);
  afterAll(async () => world?.close());

  it('one user spread over the replicas gets the limit within ±20 %, not three times it', async () => {
    const token = await world.issuer.sign({ sub: USERS.owner, roles: ['platform:read'] });
    const { perSecond, refused } = await acceptedPerSecond(world, token, 5);
    expect(refused).toBeGreaterThan(0);
    expect(perSecond).toBeGreaterThanOrEqual(LIMIT * 0.8);
    expect(perSecond).toBeLessThanOrEqual(LIMIT * 1.2);
  });
});
