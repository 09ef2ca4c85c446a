import { afterAll, describe, expect, it } from 'vitest';
import { invokeModel, oneWorkerPool } from './one-worker-pool.ts';

/**
 * A worker runs one sandbox at a time: invocations of connectors that loop to their deadline wait for each other.
 * Each must end with its own time limit, however long it waited, and the worker must not be taken for stuck.
 */
describe('a runtime worker busy with looping connectors', () => {
  const timeoutMs = 500;
  const pool = oneWorkerPool({ timeoutMs });
  afterAll(() => pool.close());

  it('ends every queued loop with TIME_LIMIT, even those that waited past deadline and grace', async () => {
    // Loops 12 deadlines long in all: the last starts 5.5 s after it was handed over, beyond 0.5 s + 5 s of grace.
    const loops = Array.from({ length: 12 }, (_, i) =>
      invokeModel(pool, String(i), 'export default class Loop { async getModel() { for (;;) {} } }'),
    );
    const outcomes = await Promise.all(loops);
    expect(outcomes.map((outcome) => outcome.error?.code)).toEqual(Array(12).fill('TIME_LIMIT'));
  }, 30_000);
});

/**
 * CONTRACT: a connector that loops is stopped, and every other invocation carries on. A sandbox holds its worker's
 * thread until its deadline: the pool hears nothing from that worker and sends what comes next to another one.
 */
describe('a runtime worker held by a looping connector', () => {
  const pool = oneWorkerPool({ timeoutMs: 5_000 });
  afterAll(() => pool.close());

  it('leaves the next invocation to another worker, which answers before the loop ends', async () => {
    const loop = invokeModel(pool, 'loop', 'export default class Loop { async getModel() { for (;;) {} } }');
    // Long enough for the pool to miss the held worker's beats.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const quick = invokeModel(
      pool,
      'quick',
      'export default class Quick { async getModel() { return { properties: [] }; } }',
    );
    const first = await Promise.race([quick.then(() => 'quick'), loop.then(() => 'loop')]);
    expect(first).toBe('quick');
    expect((await quick).error).toBeUndefined();
    expect((await loop).error?.code).toBe('TIME_LIMIT');
  }, 30_000);
});
