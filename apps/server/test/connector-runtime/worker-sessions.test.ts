import { defaultLimits } from '@platform/runtime';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntimePool, type RuntimePool } from '../../src/runtime/runtime-pool.ts';

/** The pool's session table against a real worker thread: warm instances end when idle or least recently used. */
const memo = `let count = 0;
export default class Memo { async getModel() { count += 1; return { count }; } }`;

const poolWith = (sessions: { idleMs: number; maxSessions: number }): RuntimePool =>
  createRuntimePool({
    limits: defaultLimits,
    fetchFor: () => () => Promise.reject(new Error('no fetch in this test')),
    log: pino({ level: 'silent' }),
    workers: 1,
    sessions,
  });

const countOf = async (pool: RuntimePool, userId: string): Promise<unknown> => {
  const outcome = await pool.invoke({
    environmentId: 1,
    subscriptionId: 'subscription-1',
    connectorId: 'c0ffee00-0000-4000-8000-000000000002',
    version: '1',
    script: memo,
    options: {},
    caller: { userId, issuer: 'https://issuer.example', roles: new Set(['connector:server']) },
    usage: 'server',
    method: 'getModel',
    args: [{}],
    callOptions: {},
  });
  return outcome.result;
};

describe('sessions of the runtime pool', () => {
  let pool: RuntimePool | undefined;
  afterEach(() => pool?.close());

  it('keeps one warm instance per caller, and ends the least recently used beyond RUNTIME_MAX_SESSIONS', async () => {
    pool = poolWith({ idleMs: 60_000, maxSessions: 2 });
    expect(await countOf(pool, 'alice')).toEqual({ kind: 'json', value: { count: 1 } });
    expect(await countOf(pool, 'alice')).toEqual({ kind: 'json', value: { count: 2 } });
    expect(await countOf(pool, 'bob')).toEqual({ kind: 'json', value: { count: 1 } });
    expect(await countOf(pool, 'alice')).toEqual({ kind: 'json', value: { count: 3 } });
    // A third caller: bob's session, the least recently used, is ended for it.
    expect(await countOf(pool, 'carol')).toEqual({ kind: 'json', value: { count: 1 } });
    expect(await countOf(pool, 'bob')).toEqual({ kind: 'json', value: { count: 1 } });
  });

  it('ends a session idle for RUNTIME_SESSION_IDLE_SECONDS', async () => {
    pool = poolWith({ idleMs: 300, maxSessions: 100 });
    expect(await countOf(pool, 'alice')).toEqual({ kind: 'json', value: { count: 1 } });
    expect(await countOf(pool, 'alice')).toEqual({ kind: 'json', value: { count: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(await countOf(pool, 'alice')).toEqual({ kind: 'json', value: { count: 1 } });
  });
});
