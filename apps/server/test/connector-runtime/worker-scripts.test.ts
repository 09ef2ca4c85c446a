import { afterAll, describe, expect, it } from 'vitest';
import { invokeModel, oneWorkerPool } from './one-worker-pool.ts';

/**
 * A worker is sent a version's script once; later invocations of that version go without it. These drive the
 * pool's real worker thread past what it keeps, so the script has to travel again.
 */
describe('the runtime pool sends each script once per worker', () => {
  const pool = oneWorkerPool();
  afterAll(() => pool.close());

  const invoke = (
    version: number,
    script = `export default class C { async getModel() { return { version: ${version} }; } }`,
  ) => invokeModel(pool, String(version), script);

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
