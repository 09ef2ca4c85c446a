import { defaultLimits } from '@platform/runtime';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntimePool } from '../../src/runtime/runtime-pool.ts';

/**
 * A worker runs one sandbox at a time: invocations of connectors that loop to their deadline wait for each other.
 * Each must end with its own time limit, however long it waited, and the worker must not be taken for stuck.
 */
describe('a runtime worker busy with looping connectors', () => {
  const timeoutMs = 500;
  const pool = createRuntimePool({
    limits: { ...defaultLimits, timeoutMs },
    fetchFor: () => () => Promise.reject(new Error('no fetch in this test')),
    log: pino({ level: 'silent' }),
    workers: 1,
  });
  afterAll(() => pool.close());

  it('ends every queued loop with TIME_LIMIT, even those that waited past deadline and grace', async () => {
    // Loops 12 deadlines long in all: the last starts 5.5 s after it was handed over, beyond 0.5 s + 5 s of grace.
    const loops = Array.from({ length: 12 }, (_, i) =>
      pool.invoke({
        environmentId: 1,
        connectorId: 'c0ffee00-0000-4000-8000-000000000002',
        version: String(i),
        script: 'export default class Loop { async getModel() { for (;;) {} } }',
        options: {},
        caller: { userId: 'tester', roles: new Set(['connector:server']) },
        usage: 'server',
        method: 'getModel',
        args: [{}],
        callOptions: {},
      }),
    );
    const outcomes = await Promise.all(loops);
    expect(outcomes.map((outcome) => outcome.error?.code)).toEqual(Array(12).fill('TIME_LIMIT'));
  }, 30_000);
});
