import { defaultLimits } from '@platform/runtime';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createRuntimePool } from '../../src/runtime/runtime-pool.ts';

/**
 * A worker is sent a version's script once; later invocations of that version go without it. These drive the
 * pool's real worker thread past what it keeps, so the script has to travel again.
 */
describe('the runtime pool sends each script once per worker', () => {
  const pool = createRuntimePool({
    limits: defaultLimits,
    fetchFor: () => () => Promise.reject(new Error('no fetch in this test')),
    log: pino({ level: 'silent' }),
    workers: 1,
  });
  afterAll(() => pool.close());

  const invoke = (
    version: number,
    script = `export default class C { async getModel() { return { version: ${version} }; } }`,
  ) =>
    pool.invoke({
      environmentId: 1,
      connectorId: 'c0ffee00-0000-4000-8000-000000000001',
      version: String(version),
      script,
      options: {},
      caller: { userId: 'tester', roles: new Set(['connector:server']) },
      usage: 'server',
      method: 'getModel',
      args: [{}],
      callOptions: {},
    });

  it('runs a version again after the worker dropped its script, and each republished version with its own', async () => {
    // More versions than a worker keeps (32): the first one's script is gone from the worker by the end.
    for (let version = 1; version <= 40; version++) {
      const outcome = await invoke(version);
      expect(outcome.error).toBeUndefined();
      expect(outcome.result).toEqual({ kind: 'json', value: { version } });
    }
    const again = await invoke(1);
    expect(again.error).toBeUndefined();
    expect(again.result).toEqual({ kind: 'json', value: { version: 1 } });
    // A version's code is what it was published with: a known version runs that, whatever else comes along.
    const repeated = await invoke(40, 'export default class Broken {');
    expect(repeated.result).toEqual({ kind: 'json', value: { version: 40 } });
  });
});
