/**
 * One runtime worker thread: runs connector sandboxes off the main event loop. Each `runtime.fetch` goes back to the
 * main thread (the proxy's exchange runs there, with its connection pools and token cache) and waits for the answer.
 * Each session's instance stays warm here until the pool ends it, so a warm call compiles nothing.
 */
import { setMaxListeners } from 'node:events';
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
import { ownCpuMs, ownThreadId } from './thread-cpu.ts';
import { CPU_CHECK_MS, HELD_AFTER_MS, usedCpuToHold } from './worker-handle.ts';
import type { FromWorker, ToWorker, WireError, WorkerData } from './worker-protocol.ts';
import {
  BEGUN,
  claimCellOf,
  LOG_MESSAGES_SENT,
  POSTED,
  RUN_CPU_SINCE,
  RUN_SINCE,
  RUN_TO_END,
  THREAD_ID,
} from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('runtime-worker runs as a worker thread');
const { limits, preparedMax, claims: claimBuffer, sandboxRun } = workerData as WorkerData;
const claims = new Int32Array(claimBuffer);
const runSince = new BigInt64Array(sandboxRun);
Atomics.store(runSince, THREAD_ID, BigInt(ownThreadId()));
/** This thread's CPU time (ms) as last read, and when (performance.now()). */
let cpuReadAt = Number.NEGATIVE_INFINITY;
let cpuRead: number | undefined;
/**
 * This thread's CPU time, read again if the last reading is older than `staleMs`. A run's start takes a reading up to
 * CPU_CHECK_MS old: its CPU is then counted up to that much high, where a reading at every start would cost each
 * call's few runs about 15 µs apiece.
 */
const cpuMs = (now: number, staleMs: number): number | undefined => {
  if (now - cpuReadAt >= staleMs) {
    cpuRead = ownCpuMs();
    cpuReadAt = now;
  }
  return cpuRead;
};
/** When the sandbox running now began (performance.now()), or undefined. */
let runBegan: number | undefined;
/** This thread's CPU time as that run began, and whether the run was found holding the thread (worker-handle.ts). */
let runCpuSince: number | undefined;
let runHeld = false;
/** A sandbox starts or stops running on this thread: the pool sees since when (worker-handle.ts `held`). */
const onRun = (running: boolean): void => {
  const now = performance.now();
  runBegan = running ? now : undefined;
  runHeld = false;
  if (running) {
    runCpuSince = cpuMs(now, CPU_CHECK_MS);
    // Before RUN_SINCE: the pool, seeing the run, sees its CPU at the start too.
    Atomics.store(
      runSince,
      RUN_CPU_SINCE,
      runCpuSince === undefined ? -1n : BigInt(Math.round(runCpuSince * 1000)),
    );
  }
  Atomics.store(runSince, RUN_SINCE, running ? BigInt(Math.round(performance.timeOrigin + now)) : 0n);
};
/** What waits for the end of the turn goes at once when one run lasts (a connector that loops): no answer waits for it. */
const SAY_WHILE_RUNNING_MS = 10;
/**
 * A run held past HELD_AFTER_MS, having used HELD_CPU_MS (a connector looping to its deadline, almost always), gets a
 * share of its core, not all of it: it rests HELD_REST_MS after each HELD_RUN_MS of work. Its deadline is wall time,
 * so it ends when it would have; meanwhile the event loop and other tenants' workers keep the cores it would have spun
 * on. A run that spent the time waiting for a core is not slowed further.
 */
const HELD_RUN_MS = 1;
const HELD_REST_MS = 3;
const rest = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
let workedSince = 0;
const whileRunning = (): RuntimeError | undefined => {
  if (runBegan === undefined) return undefined;
  const now = performance.now();
  if (outbox.length > 0 && now - runBegan > SAY_WHILE_RUNNING_MS) post();
  const toEnd = Atomics.load(runSince, RUN_TO_END);
  if (toEnd !== 0n) {
    Atomics.store(runSince, RUN_TO_END, 0n);
    if (toEnd === Atomics.load(runSince, RUN_SINCE)) return endedForOthers(now - runBegan);
  }
  if (now - runBegan > HELD_AFTER_MS && !runHeld)
    runHeld = usedCpuToHold(runCpuSince, cpuMs(now, CPU_CHECK_MS));
  if (!runHeld) {
    workedSince = now;
    return undefined;
  }
  if (now - workedSince < HELD_RUN_MS) return undefined;
  Atomics.wait(rest, 0, 0, HELD_REST_MS);
  workedSince = performance.now();
  return undefined;
};

/** The error of a run the pool ended because another caller of its subscription waited for its thread. */
const endedForOthers = (ranMs: number): RuntimeError =>
  new RuntimeError(
    'TIME_LIMIT',
    `the connector ran ${(ranMs / 1000).toFixed(1)} s without pausing while another caller of its subscription waited for the thread it held; it was ended before its time limit`,
  );
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

/** A session's warm instance on this worker: its calls overlap in it. */
type Session = { sandbox: Promise<ConnectorSandbox>; running: number; ended: boolean };
const sessions = new Map<string, Session>();
/** The script of each version this worker was sent, the least recently used dropped beyond `MAX_VERSIONS`. */
const scripts = new Map<string, string>();
const waiting = new Map<number, (reply: Extract<ToWorker, { type: 'fetched' }>) => void>();
let fetchSequence = 0;

/**
 * What this turn of the loop has to say, posted at its end as one message. Each message wakes the main thread, and
 * on a machine with few cores the woken event loop (of higher priority) takes this thread's core at once: one post
 * per turn, not one per fetch and answer, is what let a busy worker keep its core.
 */
let outbox: FromWorker[] = [];
let transfers: ArrayBuffer[] = [];
/**
 * Refs of bodies the pool keeps that no pointer names any more: said at the end of the turn, after its answers (a
 * `download`'s answer names the body it returned, and the pool answers from its copy).
 */
let releasing: string[] = [];
let endOfTurnSet = false;

const post = (): void => {
  if (outbox.length === 0) return;
  port.postMessage(outbox, transfers);
  outbox = [];
  transfers = [];
};
const endOfTurn = (): void => {
  endOfTurnSet = false;
  if (releasing.length > 0) outbox.push({ type: 'release', refs: releasing });
  releasing = [];
  post();
};
const atEndOfTurn = (): void => {
  if (endOfTurnSet) return;
  endOfTurnSet = true;
  setImmediate(endOfTurn);
};
const send = (message: FromWorker, transfer: ArrayBuffer[] = []): void => {
  outbox.push(message);
  transfers.push(...transfer);
  atEndOfTurn();
};
const release = (ref: string): void => {
  releasing.push(ref);
  atEndOfTurn();
};

/** A fetch's answer as the sandbox takes it: a body the pool keeps is known by its length and ref. */
const responseOf = (reply: Extract<ToWorker, { type: 'fetched' }>): HostFetchResponse | undefined => {
  if (!reply.response) return undefined;
  const kept = reply.kept;
  if (kept === undefined) return reply.response;
  return { ...reply.response, kept: { ...kept, release: () => release(kept.ref) } };
};

const wireError = (error: unknown): WireError =>
  error instanceof RuntimeError
    ? { code: error.code, message: error.message, connectorStatus: error.connectorStatus }
    : { message: error instanceof Error ? error.message : String(error) };

const noFetch: HostFetch = () => Promise.reject(new Error('a fetch outside any call'));

/**
 * One call's way out: each fetch goes to the main thread by message, under the call's id. When the call ends first
 * (its signal), the main thread is told to abort it at once, its upstream connection included.
 */
const fetchFor =
  (id: number): HostFetch =>
  (request, signal) =>
    new Promise((resolve, reject) => {
      fetchSequence += 1;
      const fetchId = fetchSequence;
      const abort = () => {
        if (!waiting.delete(fetchId)) return;
        send({ type: 'abort-fetch', fetchId });
        reject(new Error('aborted: the call ended'));
      };
      waiting.set(fetchId, (reply) => {
        waiting.delete(fetchId);
        signal.removeEventListener('abort', abort);
        const response = responseOf(reply);
        if (response) resolve(response);
        else if (reply.error?.code) reject(new RuntimeError(reply.error.code, reply.error.message));
        else reject(new Error(reply.error?.message ?? 'fetch failed'));
      });
      if (signal.aborted) {
        abort();
        return;
      }
      // One listener per fetch of the call (up to RUNTIME_MAX_FETCHES): not a leak.
      setMaxListeners(limits.maxFetches + 10, signal);
      signal.addEventListener('abort', abort, { once: true });
      send({ type: 'fetch', id, fetchId, request });
    });

/**
 * Instances of versions just published, loaded before any call (a `prepare`), by version: the first session of the
 * version to start here takes its instance, so the first call after a publish compiles nothing. Such an instance has
 * run the module's top level and its constructor with the published options, and no call: no caller's state is in it.
 * Kept PREPARED_MS at most (a publisher tries a connector at once, or not soon), `preparedMax` at most (the pool's
 * share of its sessions' bound), the oldest dropped first.
 */
type Prepared = { sandbox: Promise<ConnectorSandbox>; options: string; timer: NodeJS.Timeout };
const prepared = new Map<string, Prepared>();
const PREPARED_MS = 60_000;

const dropPrepared = (key: string): void => {
  const entry = prepared.get(key);
  if (!entry) return;
  prepared.delete(key);
  clearTimeout(entry.timer);
  entry.sandbox.then(
    (sandbox) => sandbox.dispose(),
    () => undefined,
  );
};

const prepare = (message: Extract<ToWorker, { type: 'prepare' }>): void => {
  if (prepared.has(message.key)) return;
  // Kept as an invocation's is: the version's later sessions here need it.
  scriptOf(message);
  const sandbox = loadSandbox(message.script, message.options);
  prepared.set(message.key, {
    sandbox,
    options: JSON.stringify(message.options),
    timer: setTimeout(() => dropPrepared(message.key), PREPARED_MS).unref(),
  });
  for (const key of prepared.keys()) {
    if (prepared.size <= preparedMax) break;
    dropPrepared(key);
  }
  // A script that does not load is left to the first call to report (a session that took it reports it itself).
  sandbox.catch(() => {
    if (prepared.get(message.key)?.sandbox === sandbox) dropPrepared(message.key);
  });
};

/** The instance of `key` loaded ahead for these options, taken (it serves one session only). */
const takePrepared = (
  key: string,
  options: Record<string, unknown>,
): Promise<ConnectorSandbox> | undefined => {
  const entry = prepared.get(key);
  if (!entry || entry.options !== JSON.stringify(options)) return undefined;
  prepared.delete(key);
  clearTimeout(entry.timer);
  return entry.sandbox;
};

const loadSandbox = (script: string, options: Record<string, unknown>): Promise<ConnectorSandbox> =>
  loadConnector({ script, options, platform: 'server', fetch: noFetch, limits, onRun, whileRunning });

const sessionFor = (message: Extract<ToWorker, { type: 'invoke' }>, script: string): Session => {
  const known = sessions.get(message.session);
  if (known && !known.ended) return known;
  const session: Session = {
    sandbox: takePrepared(message.key, message.options) ?? loadSandbox(script, message.options),
    running: 0,
    ended: false,
  };
  sessions.set(message.session, session);
  // A script that does not load leaves no session behind.
  session.sandbox.catch(() => {
    if (sessions.get(message.session) === session) sessions.delete(message.session);
  });
  return session;
};

/** Ends a session's instance once none of its calls runs. */
const endSession = (key: string, session = sessions.get(key)): void => {
  if (!session) return;
  session.ended = true;
  if (session.running > 0) return;
  if (sessions.get(key) === session) sessions.delete(key);
  session.sandbox.then(
    (sandbox) => sandbox.dispose(),
    () => undefined,
  );
};

/** The invocation's script: the one it carries, else the one kept for its version. */
const scriptOf = (message: { key: string; script?: string | undefined }): string | undefined => {
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
  const fetches: FetchRecord[] = [];
  const logs: string[] = [];
  const session = sessionFor(message, script);
  session.running += 1;
  try {
    const sandbox = await session.sandbox;
    // Claimed only now, when nothing awaits before the sandbox runs: until then (the message waiting while another
    // sandbox held this thread, the sandbox loading) the pool may have sent the invocation to another worker.
    if (!begin(message.id)) return;
    const result = await sandbox.call(message.method, message.args, message.callOptions, message.deadline, {
      fetch: fetchFor(message.id),
      onFetch: (record) => fetches.push(record),
      onLogError: (text) => {
        if (logs.length < LOG_MESSAGES_SENT) logs.push(text);
      },
    });
    // Bytes the pool keeps stay there (it answers them); others go over by transfer.
    const transfer =
      result.kind === 'binary' && result.kept === undefined
        ? [result.bytes.slice().buffer as ArrayBuffer]
        : [];
    send(
      {
        type: 'done',
        id: message.id,
        result:
          result.kind === 'binary' && transfer[0] !== undefined
            ? { ...result, bytes: new Uint8Array(transfer[0]) }
            : result,
        fetches,
        logs,
        durationMs: performance.now() - started,
      },
      transfer,
    );
  } catch (error) {
    send({
      type: 'done',
      id: message.id,
      error: wireError(error),
      fetches,
      logs,
      durationMs: performance.now() - started,
    });
  } finally {
    session.running -= 1;
    if (session.ended) endSession(message.session, session);
  }
};

port.on('message', (message: ToWorker) => {
  if (message.type === 'fetched') {
    const answer = waiting.get(message.fetchId);
    if (answer) answer(message);
    // The fetch's call ended first: nothing will name the body the pool kept for it.
    else if (message.kept) release(message.kept.ref);
  } else if (message.type === 'end-session') {
    endSession(message.session);
  } else if (message.type === 'prepare') {
    prepare(message);
  } else if (message.type === 'invoke') {
    void invoke(message);
  } else if (begin(message.id)) {
    const begun = performance.now();
    void checkScript(message.script, limits, onRun).then(
      () =>
        send({
          type: 'done',
          id: message.id,
          fetches: [],
          logs: [],
          durationMs: performance.now() - begun,
        }),
      (error: unknown) =>
        send({
          type: 'done',
          id: message.id,
          error: wireError(error),
          fetches: [],
          logs: [],
          durationMs: 0,
        }),
    );
  }
});
