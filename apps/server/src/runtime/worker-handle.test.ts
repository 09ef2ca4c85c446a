import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HELD_AFTER_MS, WorkerHandle } from './worker-handle.ts';
import {
  BEGUN,
  CLAIM_CELLS,
  claimCellOf,
  RUN_CPU_SINCE,
  RUN_SINCE,
  SANDBOX_RUN_CELLS,
  THREAD_ID,
  type ToWorker,
} from './worker-protocol.ts';

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
  const sandboxRun = new BigInt64Array(new SharedArrayBuffer(SANDBOX_RUN_CELLS * 8));
  const worker = new WorkerHandle(
    { postMessage: (message: ToWorker) => sent.push(message) },
    claims,
    sandboxRun,
    false,
    0,
  );
  /** A sandbox starts running on the worker at `at` (the pool's performance.now() clock), or none runs (undefined). */
  const runSince = (at: number | undefined) =>
    Atomics.store(sandboxRun, 0, at === undefined ? 0n : BigInt(Math.round(performance.timeOrigin + at)));
  return { worker, sent, claims, runSince };
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

  it('is held once one sandbox run lasts past the limit, and takes back only what the worker has not begun', () => {
    const { worker, claims, runSince } = handle();
    worker.give({ message: invoke(1) }, 1_000);
    worker.give({ message: invoke(2) }, 1_000);
    runSince(1_000);
    expect(worker.held(1_200)).toBe(false);
    expect(worker.held(1_400)).toBe(true);
    // The worker began job 1 (its compare-and-swap); job 2 still waits behind it.
    Atomics.store(claims, claimCellOf(1), BEGUN);
    expect(worker.takeBack().map((job) => job.message.id)).toEqual([2]);
    expect([...worker.running.keys()]).toEqual([1]);
    runSince(undefined);
    expect(worker.held(1_600)).toBe(false);
  });

  it('is not held while busy with short runs or still starting, however long it has said nothing', () => {
    const { worker, runSince } = handle();
    worker.give({ message: invoke(1) }, 1_000);
    // Still starting: no run yet, nothing said for two seconds.
    expect(worker.held(3_000)).toBe(false);
    // Many short runs, its answers queued: none of them old.
    for (let at = 3_000; at < 4_000; at += 10) {
      runSince(at);
      expect(worker.held(at + 5)).toBe(false);
      runSince(undefined);
    }
    expect(worker.held(4_000)).toBe(false);
    // Only silence past a whole deadline and more means stuck (replaced).
    expect(worker.silentFor(4_000, 5_000)).toBe(false);
    expect(worker.silentFor(7_000, 5_000)).toBe(true);
  });

  /**
   * A real thread in one long run, as the runtime's worker marks it: its id, its CPU time and the time as the run
   * begins. It spins (a looping connector) or sleeps (a run waiting for a core) until told to stop.
   */
  const threadInRun = (spin: boolean) => {
    const sandboxRun = new SharedArrayBuffer(SANDBOX_RUN_CELLS * 8);
    const stop = new SharedArrayBuffer(4);
    const thread = new Worker(
      `const { workerData } = require('node:worker_threads');
      const fs = require('node:fs');
      const cells = new BigInt64Array(workerData.sandboxRun);
      const stop = new Int32Array(workerData.stop);
      const cpuMs = Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
      Atomics.store(cells, ${THREAD_ID}, BigInt(fs.readlinkSync('/proc/thread-self').split('/').at(-1)));
      Atomics.store(cells, ${RUN_CPU_SINCE}, BigInt(Math.round(cpuMs * 1000)));
      Atomics.store(cells, ${RUN_SINCE}, BigInt(Math.round(performance.timeOrigin + performance.now())));
      if (workerData.spin) while (Atomics.load(stop, 0) === 0);
      else Atomics.wait(stop, 0, 0);`,
      { eval: true, workerData: { sandboxRun, spin, stop } },
    );
    const worker = new WorkerHandle(
      { postMessage: () => undefined },
      new Int32Array(new SharedArrayBuffer(CLAIM_CELLS * 4)),
      new BigInt64Array(sandboxRun),
      false,
      performance.now(),
    );
    const end = async () => {
      Atomics.store(new Int32Array(stop), 0, 1);
      Atomics.notify(new Int32Array(stop), 0);
      await thread.terminate();
    };
    const running = async () => {
      while (!worker.inRun()) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    return { worker, end, running };
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it.runIf(existsSync('/proc/thread-self/schedstat'))(
    'is held by a run that spins on its core, not by one as long that waited without using it',
    async () => {
      const spinning = threadInRun(true);
      const waiting = threadInRun(false);
      try {
        await Promise.all([spinning.running(), waiting.running()]);
        // The spinning run is held as soon as it has used the CPU, however busy the machine keeps its cores.
        let spunFor = HELD_AFTER_MS;
        await sleep(HELD_AFTER_MS);
        while (!spinning.worker.held(performance.now()) && spunFor < 20_000) {
          await sleep(50);
          spunFor += 50;
        }
        expect(spinning.worker.held(performance.now())).toBe(true);
        // The other run, as long on the clock and longer than HELD_AFTER_MS, used no CPU: it holds nothing.
        expect(waiting.worker.held(performance.now())).toBe(false);
        await sleep(HELD_AFTER_MS);
        expect(waiting.worker.held(performance.now())).toBe(false);
      } finally {
        await Promise.all([spinning.end(), waiting.end()]);
      }
    },
    30_000,
  );
});
