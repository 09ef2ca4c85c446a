/**
 * Every streaming body parse of the process shares one queue: each turn of the event loop runs queued parse steps
 * for at most `SLICE_MS`, then lets the loop answer I/O before the next turn. Sixteen uploads at once therefore
 * add a few milliseconds to another request's wait, not sixteen chunks' worth; steps run in arrival order, and a
 * body queues its next chunk only once its last one is parsed, so uploads take turns.
 */
const SLICE_MS = 4;

const queue: (() => void)[] = [];
let scheduled = false;

const run = () => {
  const started = performance.now();
  while (queue.length > 0 && performance.now() - started < SLICE_MS) queue.shift()?.();
  scheduled = queue.length > 0;
  if (scheduled) setImmediate(run);
};

/** Runs `step` in a later turn of the event loop, within the shared time slice. */
export const inParseTurn = (step: () => void): void => {
  queue.push(step);
  if (!scheduled) {
    scheduled = true;
    setImmediate(run);
  }
};
