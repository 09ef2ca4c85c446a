import { describe, expect, it } from 'vitest';
import { WorkerHandle } from './worker-handle.ts';
import { BEGUN, CLAIM_CELLS, claimCellOf, type ToWorker } from './worker-protocol.ts';

const invoke = (id: number, key = 'c@1'): Extract<ToWorker, { type: 'invoke' }> => ({
  type: 'invoke',
  id,
  key,
  session: `s${id}`,
  script: 'export default class C {}',
  options: {},
  method: 'getModel',
  args: [],
  callOptions: {},
  deadline: 0,
});

const handle = () => {
  const sent: ToWorker[] = [];
  const claims = new Int32Array(new SharedArrayBuffer(CLAIM_CELLS * 4));
  const worker = new WorkerHandle(
    { postMessage: (message: ToWorker) => sent.push(message) },
    claims,
    false,
    0,
  );
  return { worker, sent, claims };
};

describe("the pool's handle of a worker", () => {
  it('sends a version its script once, and again when the worker asks', () => {
    const { worker, sent } = handle();
    worker.give({ message: invoke(1) }, 0);
    worker.give({ message: invoke(2) }, 0);
    expect(sent.map((message) => 'script' in message && message.script !== undefined)).toEqual([true, false]);
    worker.resend(2);
    expect(sent.at(-1)).toMatchObject({ id: 2, script: 'export default class C {}' });
  });

  it('is held once silent with work for three beats, and takes back only what the worker has not begun', () => {
    const { worker, claims } = handle();
    worker.give({ message: invoke(1) }, 1_000);
    worker.give({ message: invoke(2) }, 1_000);
    expect(worker.held(1_200)).toBe(false);
    expect(worker.held(1_400)).toBe(true);
    // The worker began job 1 (its compare-and-swap); job 2 still waits behind it.
    Atomics.store(claims, claimCellOf(1), BEGUN);
    expect(worker.takeBack().map((job) => job.message.id)).toEqual([2]);
    expect([...worker.running.keys()]).toEqual([1]);
    worker.heard(1_500);
    expect(worker.held(1_600)).toBe(false);
  });
});
