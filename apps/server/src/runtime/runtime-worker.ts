/**
 * One runtime worker thread: runs connector sandboxes off the main event loop. Each `runtime.fetch` goes back to the
 * main thread (the proxy's exchange runs there, with its connection pools and token cache) and waits for the answer.
 * Sandboxes stay warm per connector version, so a warm call compiles nothing.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import {
  type ConnectorSandbox,
  checkScript,
  type FetchRecord,
  type HostFetch,
  type HostFetchResponse,
  keepEngineReady,
  loadConnector,
  RuntimeError,
} from '@platform/runtime';
import type { FromWorker, ToWorker, WireError, WorkerData } from './worker-protocol.ts';
import { ALIVE_INTERVAL_MS, BEGUN, claimCellOf, POSTED } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('runtime-worker runs as a worker thread');
const { limits, maxIdle, claims: claimBuffer } = workerData as WorkerData;
const claims = new Int32Array(claimBuffer);
/** False when the pool took the job back while this thread was held (it runs elsewhere): it is then left alone. */
const begin = (id: number): boolean =>
  Atomics.compareExchange(claims, claimCellOf(id), POSTED, BEGUN) === POSTED;

/**
 * A lower scheduling priority than the event loop's, not the lowest. At nice 10 the scheduler weighs the event loop's
 * thread about nine times a worker's: with every core running sandboxes (a connector looping to its deadline), the
 * main event loop (HTTP, the proxy) still gets its turn at once. At nice 19 (weighed 68 times less) the workers got
 * next to no CPU whenever other processes of normal priority kept the cores busy (a second replica, a build, a
 * neighbour): every check and invocation then outlasted its deadline and the worker was taken for stuck.
 */
const WORKER_NICENESS = 10;
// On Linux a thread's own priority change applies to that thread alone. Elsewhere the call would lower the whole
// process, so it is left out.
if (process.platform === 'linux') setPriority(WORKER_NICENESS);
keepEngineReady(limits.memoryBytes);

/** Scripts kept by connector version, the least recently used dropped first. */
const MAX_VERSIONS = 32;

type Slot = { sandbox: ConnectorSandbox; route: { id: number; fetches: FetchRecord[] } };
/** Warm sandboxes by version (concurrent calls of one connector each need their own), least recently used first. */
const idle = new Map<string, Slot[]>();
let idleCount = 0;
/** The script of each version this worker was sent, the least recently used dropped beyond `MAX_VERSIONS`. */
const scripts = new Map<string, string>();
const waiting = new Map<number, (reply: { response?: HostFetchResponse; error?: WireError }) => void>();
let fetchSequence = 0;

const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const wireError = (error: unknown): WireError =>
  error instanceof RuntimeError
    ? { code: error.code, message: error.message, connectorStatus: error.connectorStatus }
    : { message: error instanceof Error ? error.message : String(error) };

const slotFor = async (key: string, script: string, options: Record<string, unknown>): Promise<Slot> => {
  const list = idle.get(key);
  const kept = list?.pop();
  if (kept) {
    idleCount -= 1;
    if (list?.length === 0) idle.delete(key);
    return kept;
  }
  const route = { id: 0, fetches: [] as FetchRecord[] };
  const fetch: HostFetch = (request) =>
    new Promise((resolve, reject) => {
      fetchSequence += 1;
      const fetchId = fetchSequence;
      waiting.set(fetchId, (reply) => {
        waiting.delete(fetchId);
        if (reply.response) resolve(reply.response);
        else if (reply.error?.code) reject(new RuntimeError(reply.error.code, reply.error.message));
        else reject(new Error(reply.error?.message ?? 'fetch failed'));
      });
      send({ type: 'fetch', id: route.id, fetchId, request });
    });
  const sandbox = await loadConnector({
    script,
    options,
    platform: 'server',
    fetch,
    limits,
    onFetch: (record) => route.fetches.push(record),
  });
  return { sandbox, route };
};

/**
 * Keeps a sandbox warm for its version's next call. Idle sandboxes are bounded in all (each holds its own
 * WebAssembly memory): beyond `maxIdle`, the least recently used version gives one up.
 */
const release = (key: string, slot: Slot): void => {
  const list = idle.get(key) ?? [];
  idle.delete(key);
  list.push(slot);
  idle.set(key, list);
  idleCount += 1;
  for (const [oldKey, slots] of idle) {
    if (idleCount <= maxIdle) break;
    slots.shift()?.sandbox.dispose();
    idleCount -= 1;
    if (slots.length === 0) idle.delete(oldKey);
  }
};

/** The invocation's script: the one it carries, else the one kept for its version. */
const scriptOf = (message: Extract<ToWorker, { type: 'invoke' }>): string | undefined => {
  const script = message.script ?? scripts.get(message.key);
  if (script === undefined) return undefined;
  scripts.delete(message.key);
  scripts.set(message.key, script);
  for (const key of scripts.keys()) {
    if (scripts.size <= MAX_VERSIONS) break;
    scripts.delete(key);
  }
  return script;
};

const invoke = async (message: Extract<ToWorker, { type: 'invoke' }>): Promise<void> => {
  const script = scriptOf(message);
  if (script === undefined) {
    send({ type: 'need-script', id: message.id });
    return;
  }
  const started = performance.now();
  let slot: Slot | undefined;
  try {
    slot = await slotFor(message.key, script, message.options);
    // Claimed only now, when nothing awaits before the sandbox runs: until then (the message waiting while another
    // sandbox held this thread, the sandbox loading) the pool may have sent the invocation to another worker.
    if (!begin(message.id)) return;
    slot.route.id = message.id;
    slot.route.fetches = [];
    const result = await slot.sandbox.call(
      message.method,
      message.args,
      message.callOptions,
      message.deadline,
    );
    const transfer = result.kind === 'binary' ? [result.bytes.buffer as ArrayBuffer] : [];
    send(
      {
        type: 'done',
        id: message.id,
        result,
        fetches: slot.route.fetches,
        durationMs: performance.now() - started,
      },
      transfer,
    );
  } catch (error) {
    send({
      type: 'done',
      id: message.id,
      error: wireError(error),
      fetches: slot?.route.fetches ?? [],
      durationMs: performance.now() - started,
    });
  } finally {
    if (slot) release(message.key, slot);
  }
};

/**
 * While the worker has work, it says every ALIVE_INTERVAL_MS that its event loop is free. A sandbox that loops holds
 * the thread until its deadline: the pool, hearing nothing, sends other invocations to another worker meanwhile.
 */
let active = 0;
let alive: NodeJS.Timeout | undefined;
const started = (): void => {
  active += 1;
  alive ??= setInterval(() => send({ type: 'alive' }), ALIVE_INTERVAL_MS);
};
const ended = (): void => {
  active -= 1;
  if (active > 0) return;
  clearInterval(alive);
  alive = undefined;
};

port.on('message', (message: ToWorker) => {
  if (message.type === 'fetched') {
    waiting.get(message.fetchId)?.(message);
  } else if (message.type === 'invoke') {
    started();
    void invoke(message).finally(ended);
  } else if (begin(message.id)) {
    const begun = performance.now();
    started();
    checkScript(message.script, limits)
      .then(
        () => send({ type: 'done', id: message.id, fetches: [], durationMs: performance.now() - begun }),
        (error: unknown) =>
          send({ type: 'done', id: message.id, error: wireError(error), fetches: [], durationMs: 0 }),
      )
      .finally(ended);
  }
});
