/**
 * The connector runtime of the server: sandboxes run in a pool of worker threads sized to the machine, so a connector
 * that loops or allocates until its limit never holds the main event loop. Three small parts decide where a call runs:
 * the session table (which worker holds which caller's warm instance), the fair queue (whose call starts next, and
 * who must wait or hear 503 with Retry-After) and the workers themselves (messages, heartbeats, claims). A worker's
 * fetches come back here, to the proxy's exchange, by message, and are aborted the moment their call ends.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ConnectorRuntimePort, Invocation, InvocationOutcome } from '@platform/api';
import { type AuthUsage, ServiceError } from '@platform/core';
import {
  type HostFetch,
  type HostFetchResponse,
  isBinaryType,
  RuntimeError,
  type RuntimeLimits,
  timeLimit,
} from '@platform/runtime';
import type { Logger } from 'pino';
import { FairQueue, type Tenancy } from './fair-queue.ts';
import { type SentFetch, withSentState } from './sent-fetches.ts';
import { type SessionEntry, SessionTable } from './session-table.ts';
import { HELD_AFTER_MS, WorkerHandle } from './worker-handle.ts';
import type { FromWorker, ToWorker, WireError, WorkerData } from './worker-protocol.ts';
import { CLAIM_CELLS, SANDBOX_RUN_CELLS } from './worker-protocol.ts';

export type RuntimePoolOptions = {
  limits: RuntimeLimits;
  /** The proxy's in-process fetch for a caller and usage. */
  fetchFor: (
    caller: { environmentId: number; connectorId: string; caller: Invocation['caller'] },
    usage: AuthUsage,
  ) => HostFetch;
  log: Logger;
  /** Warm sessions: ended when idle this long; at most this many at once (the least recently used ended first). */
  sessions?: { idleMs: number; maxSessions: number };
  /** Worker threads; default one per core the machine offers but one (at least one). */
  workers?: number;
  /**
   * Workers beyond `workers` for calls that would otherwise wait behind sandboxes holding every worker (connectors
   * looping to their deadline); default one more than `workers`. One of them is started with the pool and stays,
   * idle, as the spare; the others start when needed and stop once idle and no worker was held for EXTRA_LINGER_MS.
   */
  extraWorkers?: number;
  /** Invocations running at once, shared fairly between subscriptions (up to twice this while shares settle). */
  running?: number;
  /** Invocations waiting, shared fairly between subscriptions; one over its share gets 503. */
  queueLimit?: number;
};

export type RuntimePool = ConnectorRuntimePort & { close(): Promise<void> };

type Job = {
  message: Extract<ToWorker, { type: 'invoke' | 'check' }>;
  invocation: Invocation | undefined;
  resolve: (outcome: InvocationOutcome) => void;
  /** performance.now() when the pool took it. */
  submittedAt: number;
  /** performance.now() when it was last handed to a worker. */
  dispatchedAt: number;
  /** The session it runs in, once it was handed to a worker. */
  session: SessionEntry<Slot> | undefined;
  /** Its fetches still running on the main thread: aborted when it ends. */
  fetches: Map<number, AbortController>;
  /** Every fetch it started here, and whether its request went out: what the records of aborted ones say. */
  sent: SentFetch[];
};

type Slot = WorkerHandle<Job, Worker>;

/**
 * Invocations running at once across the pool, by default. They mostly wait for fetches, and a session's calls share
 * one instance, so memory follows the sessions (bounded on their own), not this.
 */
const RUNNING_INVOCATIONS = 64;

/**
 * A worker with work that has sent nothing for an invocation's deadline plus this is presumed stuck and replaced.
 * Silence is the measure, not each job's age: a worker runs one sandbox at a time, so a job that waited behind a
 * connector looping to its deadline may rightly finish well after its own dispatch plus the deadline, while a live
 * worker is never silent longer than one deadline (every fetch and every sandbox run is bounded by it).
 */
const STUCK_GRACE_MS = 5_000;

/**
 * An invocation still running this long after its deadline is answered TIME_LIMIT by the pool itself: its sandbox
 * ends it at the deadline, unless another sandbox holds the worker's thread then (a connector looping to its own,
 * later deadline), and the caller must not wait for that one.
 */
const DEADLINE_GRACE_MS = 1_000;

/** How long extra workers stay, idle, after the last held worker was seen. */
const EXTRA_LINGER_MS = 30_000;
/** How long a thread freed for a waiting caller is kept for its call (`roomFor`). */
const ROOM_KEPT_MS = 1_000;

/** How often the pool looks for held workers, jobs past their deadline and stuck workers. */
const WATCH_INTERVAL_MS = 250;

const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './runtime-worker.ts' : './runtime-worker.js',
  import.meta.url,
);

/**
 * The bundle ships the worker as JavaScript. From source (tests, tsx) it is TypeScript: a small evaluated entry
 * registers tsx in the worker first (`--import` in a worker's execArgv does not reach its entry module).
 */
const newWorker = (data: WorkerData): Worker =>
  workerUrl.pathname.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); });`,
        { eval: true, workerData: data },
      )
    : new Worker(workerUrl, { workerData: data });

export const createRuntimePool = (options: RuntimePoolOptions): RuntimePool => {
  // One core is left to the event loop (HTTP, the proxy every fetch goes through): sandboxes looping to their
  // deadline on every other core never delay an answer.
  const size = options.workers ?? Math.max(1, availableParallelism() - 1);
  const extraWorkers = options.extraWorkers ?? size + 1;
  const running = options.running ?? RUNNING_INVOCATIONS;
  const fair = new FairQueue<Job>({ running, waiting: options.queueLimit ?? running * 4 });
  const sessionOptions = options.sessions ?? { idleMs: 300_000, maxSessions: 1000 };
  const sessions = new SessionTable<Slot>(sessionOptions);
  /**
   * Instances loaded at a publish cost what a session does: each worker keeps at most an eighth of the sessions'
   * bound of them, and never more than 32.
   */
  const preparedMax = Math.max(1, Math.min(32, Math.floor(sessionOptions.maxSessions / 8)));
  /** When each subscription last submitted a call (performance.now()): those of the last session idle time use the runtime. */
  const lastCall = new Map<string, number>();
  /** When a worker was last seen held (performance.now()). */
  let lastHeld = Number.NEGATIVE_INFINITY;
  /** Publish checks: no tenant's, few, and never waiting behind the fair queue. */
  const checks: Job[] = [];
  /**
   * The worker each version just published was loaded on ahead of its first call (`prepare`): the version's first
   * session starts there, in that instance, if the worker is free. A hint only, dropped once used.
   */
  const preparedOn = new Map<string, Slot>();
  const slots: Slot[] = [];
  const claimBuffer = new SharedArrayBuffer(CLAIM_CELLS * Int32Array.BYTES_PER_ELEMENT);
  const claims = new Int32Array(claimBuffer);
  let sequence = 0;
  let bodySequence = 0;
  let closed = false;

  /** The time limit, answered by the pool: the job was never begun, or its sandbox cannot end it (its worker is held). */
  const timedOut = (job: Job): InvocationOutcome => {
    const { code, message } = timeLimit(options.limits.timeoutMs);
    return {
      result: undefined,
      error: { code, message },
      fetches: [],
      durationMs: performance.now() - job.submittedAt,
    };
  };

  const spawn = (extra = false): Slot => {
    const sandboxRun = new SharedArrayBuffer(SANDBOX_RUN_CELLS * BigInt64Array.BYTES_PER_ELEMENT);
    const worker = newWorker({ limits: options.limits, preparedMax, claims: claimBuffer, sandboxRun });
    const slot: Slot = new WorkerHandle(
      worker,
      claims,
      new BigInt64Array(sandboxRun),
      extra,
      performance.now(),
    );
    // A worker posts what one turn of its loop had to say at once (runtime-worker.ts `flush`).
    worker.on('message', (messages: FromWorker[]) => {
      for (const message of messages) onMessage(slot, message);
    });
    worker.on('error', (error) => options.log.error({ err: error }, 'connector runtime worker failed'));
    worker.on('exit', () => replace(slot, 'the runtime worker stopped'));
    worker.unref();
    return slot;
  };

  /** A session given up (idle, least recently used, moved): its worker drops the instance once no call runs there. */
  const endSession = (entry: SessionEntry<Slot>): void => {
    if (slots.includes(entry.worker)) entry.worker.endSession(entry.key);
  };

  /** Ends a job: its fetches still running are aborted at once, its running share and session are given back. */
  const settle = (job: Job, outcome: InvocationOutcome): void => {
    for (const controller of job.fetches.values()) controller.abort(new Error('the connector call ended'));
    job.fetches.clear();
    if (job.invocation) fair.done(job);
    if (job.session) sessions.end(job.session, performance.now());
    job.resolve(outcome);
  };

  const finish = (slot: Slot, id: number, outcome: InvocationOutcome): void => {
    const job = slot.running.get(id);
    if (!job) return;
    slot.running.delete(id);
    settle(job, outcome);
    pump();
  };

  /**
   * Takes back the jobs a worker was sent but has not begun (a sandbox holds its thread, or it died): they go back to
   * the head of their queue, for another worker. A job begun stays: it runs exactly once.
   */
  const withdraw = (slot: Slot): void => {
    for (const job of slot.takeBack()) {
      if (job.session) {
        sessions.end(job.session, performance.now());
        job.session = undefined;
      }
      if (job.invocation) fair.requeue(job);
      else checks.unshift(job);
    }
  };

  /** A stuck or dead worker: the jobs it has not begun go to another worker, the rest fail; a fresh one takes its place. */
  const replace = (slot: Slot, reason: string): void => {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    slots.splice(index, 1);
    withdraw(slot);
    for (const id of [...slot.running.keys()]) {
      finish(slot, id, failed({ code: 'CONNECTOR_ERROR', message: reason }));
    }
    sessions.forget(slot);
    forgetPrepared(slot);
    void slot.port.terminate();
    // A worker of the pool's own, or the spare when it was the last extra one, is started again.
    if (!closed && (!slot.extra || !slots.some((other) => other.extra))) slots.push(spawn(slot.extra));
    pump();
  };

  const held = (slot: Slot, now: number): boolean => slot.held(now);

  /** The worker of `candidates` with the fewest jobs. */
  const least = (candidates: Slot[]): Slot | undefined =>
    candidates.reduce<Slot | undefined>(
      (best, slot) => (best === undefined || slot.running.size < best.running.size ? slot : best),
      undefined,
    );

  const onMessage = (slot: Slot, message: FromWorker): void => {
    slot.heard(performance.now());
    if (message.type === 'need-script') {
      slot.resend(message.id);
      return;
    }
    if (message.type === 'release') {
      for (const ref of message.refs) slot.bodies.delete(ref);
      return;
    }
    if (message.type === 'done') {
      const sent = slot.running.get(message.id)?.sent ?? [];
      const kept = message.result?.kind === 'binary' ? message.result.kept : undefined;
      const bytes = kept === undefined ? undefined : slot.bodies.get(kept);
      const gone = kept !== undefined && bytes === undefined;
      finish(slot, message.id, {
        result:
          message.result?.kind === 'binary' && bytes !== undefined
            ? { kind: 'binary', contentType: message.result.contentType, bytes }
            : gone
              ? undefined
              : message.result,
        error: gone
          ? { code: 'CONNECTOR_ERROR', message: 'the bytes the download answered are gone' }
          : message.error?.code
            ? { ...message.error, code: message.error.code }
            : toConnectorError(message.error),
        fetches: withSentState(message.fetches, sent),
        logs: message.logs,
        durationMs: message.durationMs,
      });
      return;
    }
    if (message.type === 'abort-fetch') {
      for (const job of slot.running.values()) {
        job.fetches.get(message.fetchId)?.abort(new Error('the connector call ended'));
        job.fetches.delete(message.fetchId);
      }
      return;
    }
    const job = slot.running.get(message.id);
    const reply = (
      answer: Omit<Extract<ToWorker, { type: 'fetched' }>, 'type' | 'fetchId'>,
      transfer: ArrayBuffer[] = [],
    ) =>
      slot.port.postMessage(
        { type: 'fetched', fetchId: message.fetchId, ...answer } satisfies ToWorker,
        transfer,
      );
    if (!job?.invocation) {
      reply({ error: { message: 'the invocation has ended' } });
      return;
    }
    const { invocation } = job;
    const fetch = options.fetchFor(
      {
        environmentId: invocation.environmentId,
        connectorId: invocation.connectorId,
        caller: invocation.caller,
      },
      invocation.usage,
    );
    // The call owns the fetch: its end (or the worker's word that it ended) aborts it, upstream connection included.
    // Its deadline needs no timer of its own: a call past it is ended by the watchdog, which aborts its fetches.
    const controller = new AbortController();
    job.fetches.set(message.fetchId, controller);
    const sent: SentFetch = { request: message.request, sent: false, credentialsInjected: false };
    job.sent.push(sent);
    fetch(message.request, controller.signal, (credentialsInjected) => {
      sent.sent = true;
      // A redirect to another origin goes without them: the credentials went out if any hop carried them.
      sent.credentialsInjected ||= credentialsInjected;
    }).then(
      (response) => {
        job.fetches.delete(message.fetchId);
        if (keptHere(response)) {
          // The sandbox never reads it as text: kept here, the worker gets its length (the pointer's `bytes`).
          bodySequence += 1;
          const ref = String(bodySequence);
          slot.bodies.set(ref, response.body);
          reply({ response: { ...response, body: EMPTY }, kept: { ref, bytes: response.body.byteLength } });
          return;
        }
        // The body goes over by transfer; a Buffer view of a pooled slab is copied first.
        const body =
          response.body.byteOffset === 0 && response.body.byteLength === response.body.buffer.byteLength
            ? response.body
            : response.body.slice();
        reply({ response: { ...response, body } }, [body.buffer as ArrayBuffer]);
      },
      (error: unknown) => {
        job.fetches.delete(message.fetchId);
        reply({ error: wireOf(error) });
      },
    );
  };

  /**
   * Where a job runs: a check on the least busy free worker; an invocation on its session's worker, unless that one is
   * held by a looping sandbox (then on another: a fresh instance, the old one ended once free). When every worker is
   * held, an extra one is started, but not for a subscription that already keeps its share of held threads busy.
   */
  const pick = (job: Job): Slot | undefined => {
    const now = performance.now();
    const slot = choose(job, now);
    // The room kept for this caller is used, here or on another thread.
    if (slot) for (const [kept, room] of roomFor) if (isCallerOf(room, job)) roomFor.delete(kept);
    return slot;
  };

  const choose = (job: Job, now: number): Slot | undefined => {
    const free = slots.filter((slot) => !held(slot, now) && keptFor(slot, job, now) !== false);
    const kept = free.find((slot) => keptFor(slot, job, now) === true);
    if (kept) return kept;
    for (const slot of slots) if (held(slot, now)) withdraw(slot);
    // A subscription whose loops already hold its share of threads waits rather than take the one others need, even
    // where its session is (that worker may be the one another tenant's calls run on).
    const subscription = job.invocation?.subscriptionId;
    const overShare =
      subscription !== undefined && heldBy(subscription, now) >= threadShare(subscription, now);
    if (overShare && slots.some((slot) => held(slot, now))) {
      if (job.invocation) makeRoomWithin(job.invocation, now);
      return undefined;
    }
    const session = job.invocation && sessions.get(sessionKeyOf(job));
    if (session && free.includes(session.worker)) return session.worker;
    const ready = !session && job.message.type === 'invoke' ? preparedOn.get(job.message.key) : undefined;
    if (ready && free.includes(ready)) return ready;
    // The pool's own workers first: an extra one (the spare included) runs only what they cannot take now, so no
    // more threads than cores less one run sandboxes while none is held.
    const chosen = least(free.filter((slot) => !slot.extra)) ?? least(free);
    if (chosen || closed) return chosen;
    return startExtra();
  };

  /**
   * A caller waits because its subscription's loops hold the subscription's share of threads: when one other caller
   * of the subscription holds more than an even part of that share, and the waiting caller less, the run held longest
   * of the one holding most is ended (its call answers TIME_LIMIT, runtime-worker.ts), and the waiting call starts on
   * its thread within a second. A caller's further calls behind its own loops wait for them, as in a browser.
   */
  const makeRoomWithin = (invocation: Invocation, now: number): void => {
    const { subscription, caller } = tenancyOf(invocation);
    const heldByCaller = new Map<string, Slot[]>();
    for (const slot of slots) {
      if (!held(slot, now)) continue;
      const owners = new Set<string>();
      for (const job of slot.running.values()) {
        if (!job.invocation) continue;
        const tenancy = tenancyOf(job.invocation);
        owners.add(tenancy.subscription === subscription ? tenancy.caller : '');
      }
      const [owner] = owners;
      // A thread held in part by another subscription, or by several callers, is not one caller's to give up.
      if (owners.size !== 1 || !owner) continue;
      heldByCaller.set(owner, [...(heldByCaller.get(owner) ?? []), slot]);
    }
    const part = Math.max(
      1,
      Math.floor(threadShare(subscription, now) / (heldByCaller.size + (heldByCaller.has(caller) ? 0 : 1))),
    );
    if ((heldByCaller.get(caller)?.length ?? 0) >= part) return;
    let most: Slot[] = [];
    for (const [owner, held] of heldByCaller) if (owner !== caller && held.length > most.length) most = held;
    if (most.length <= part) return;
    const longest = most.reduce((a, b) =>
      (a.runSince() ?? Number.POSITIVE_INFINITY) <= (b.runSince() ?? Number.POSITIVE_INFINITY) ? a : b,
    );
    longest.endRun();
    roomFor.set(longest, { subscription, caller, until: now + ROOM_KEPT_MS });
  };

  /**
   * Threads whose run was ended for a waiting caller (`makeRoomWithin`), kept for that caller's call until it starts
   * (there or elsewhere) or ROOM_KEPT_MS pass. Left to whoever came first, the freed thread went to the next call of
   * the caller whose run was ended (a client calling again at once), and the waiting call waited until that new run
   * was taken as held in its turn, then ended it too: two runs ended, and most of a second, for one call.
   */
  const roomFor = new Map<Slot, Tenancy & { until: number }>();
  const roomOf = (slot: Slot, now: number): (Tenancy & { until: number }) | undefined => {
    const room = roomFor.get(slot);
    if (room === undefined || room.until > now) return room;
    roomFor.delete(slot);
    return undefined;
  };
  const isCallerOf = (room: Tenancy, job: Job): boolean => {
    const tenancy = job.invocation && tenancyOf(job.invocation);
    return tenancy?.subscription === room.subscription && tenancy.caller === room.caller;
  };
  /** Whether `slot` is kept for `job`'s caller (true), for another caller (false), or for no one (undefined). */
  const keptFor = (slot: Slot, job: Job, now: number): boolean | undefined => {
    const room = roomOf(slot, now);
    return room === undefined ? undefined : isCallerOf(room, job);
  };

  /** An extra worker beside held ones, if the pool may start one more. */
  const startExtra = (): Slot | undefined => {
    if (closed || slots.filter((slot) => slot.extra).length >= extraWorkers) return undefined;
    const extra = spawn(true);
    slots.push(extra);
    options.log.info(
      { workers: slots.length },
      'connector runtime: a worker started beside those a sandbox holds',
    );
    return extra;
  };

  /** The subscriptions with calls on held workers. */
  const holdersAt = (now: number): Set<string> => {
    const holders = new Set<string>();
    for (const slot of slots) {
      if (!held(slot, now)) continue;
      for (const job of slot.running.values()) if (job.invocation) holders.add(job.invocation.subscriptionId);
    }
    return holders;
  };

  /** Whether a subscription that holds no worker used the runtime lately, while loops hold some. */
  const othersWaitingFor = (now: number): boolean => {
    const holders = holdersAt(now);
    return holders.size > 0 && [...lastCall.keys()].some((subscription) => !holders.has(subscription));
  };

  /**
   * Workers `subscription` may be holding: those running one of its calls that are in a sandbox run now (held, or a
   * loop not known as one yet) or were given it less than HELD_AFTER_MS ago (its sandbox may still be loading).
   * Counting only the held ones, a tenant whose loops had just been handed out took every idle worker, the spare and
   * the extras, before any was known as held, and another tenant's calls then waited for the loops' time limit.
   */
  const heldBy = (subscription: string, now: number): number =>
    slots.filter((slot) => {
      const busy = slot.inRun();
      return [...slot.running.values()].some(
        (job) =>
          job.invocation?.subscriptionId === subscription && (busy || now - job.dispatchedAt < HELD_AFTER_MS),
      );
    }).length;

  /**
   * Threads `subscription` may keep held: all of them but one (kept for a newcomer), shared between it and the
   * subscriptions that hold any.
   */
  const threadShare = (subscription: string, now: number): number => {
    const holders = holdersAt(now).add(subscription);
    return Math.max(1, Math.floor((size + extraWorkers - 1) / holders.size));
  };

  /** Hands `job` to `slot`, in its session there (opened, or moved there from a held worker). */
  const dispatch = (slot: Slot, job: Job): void => {
    if (job.invocation && job.message.type === 'invoke') {
      const now = performance.now();
      const opened = sessions.open(job.message.session, () => slot, now);
      for (const ended of opened.ended) endSession(ended);
      const entry = opened.entry;
      if (entry.worker !== slot) {
        // Its worker is held: the session continues here in a fresh instance.
        endSession(entry);
        entry.worker = slot;
      }
      sessions.begin(entry, now);
      job.session = entry;
    }
    if (job.message.type === 'invoke' && preparedOn.get(job.message.key) === slot)
      preparedOn.delete(job.message.key);
    job.dispatchedAt = performance.now();
    slot.give(job, job.dispatchedAt);
  };

  const forgetPrepared = (slot: Slot): void => {
    for (const [key, on] of preparedOn) if (on === slot) preparedOn.delete(key);
  };

  const pump = (): void => {
    while (checks.length > 0) {
      const slot = pick(checks[0]!);
      if (!slot) break;
      dispatch(slot, checks.shift()!);
    }
    for (;;) {
      const now = Date.now();
      // Past its deadline already: answered here, before a worker is picked (or started) for it.
      for (const late of fair.drop((job) => pastDeadline(job, now))) late.resolve(timedOut(late));
      let slot: Slot | undefined;
      const job = fair.take((candidate) => {
        slot = pick(candidate);
        return slot !== undefined;
      });
      if (!job || !slot) return;
      dispatch(slot, job);
    }
  };

  const submit = (
    message: Job['message'],
    invocation: Invocation | undefined,
  ): Promise<InvocationOutcome> => {
    if (closed)
      return Promise.reject(new ServiceError('UNAVAILABLE', 'The connector runtime is shutting down.'));
    return new Promise((resolve, reject) => {
      const job: Job = {
        message,
        invocation,
        resolve,
        submittedAt: performance.now(),
        dispatchedAt: 0,
        session: undefined,
        fetches: new Map(),
        sent: [],
      };
      if (invocation) lastCall.set(invocation.subscriptionId, job.submittedAt);
      if (!invocation) checks.push(job);
      else if (!fair.offer(job, tenancyOf(invocation))) {
        reject(
          new ServiceError(
            'UNAVAILABLE',
            "The connector runtime is busy with this subscription's calls; retry in a moment.",
            { headers: { 'Retry-After': '1' }, members: { code: 'RUNTIME_BUSY' } },
          ),
        );
        return;
      }
      pump();
    });
  };

  for (let i = 0; i < size; i++) slots.push(spawn());
  // The spare, started now: starting a worker when a loop takes the last one would cost the cores a loop leaves to
  // the event loop, just when it needs them.
  if (extraWorkers > 0) slots.push(spawn(true));
  const silenceLimit = options.limits.timeoutMs + STUCK_GRACE_MS;
  const watchdog = setInterval(() => {
    const now = performance.now();
    const wallClock = Date.now();
    for (const slot of [...slots]) {
      if (slot.silentFor(now, silenceLimit)) replace(slot, 'the runtime worker stopped answering');
    }
    for (const slot of slots) {
      if (held(slot, now)) withdraw(slot);
      for (const [id, job] of slot.running) {
        if (!pastDeadline(job, wallClock - DEADLINE_GRACE_MS)) continue;
        // Not begun yet: the worker must not begin it once it is free (its caller has the answer already).
        slot.drop(id);
        settle(job, timedOut(job));
      }
    }
    for (const ended of sessions.expire(now)) endSession(ended);
    for (const slot of roomFor.keys()) if (!roomOf(slot, now) || !slots.includes(slot)) roomFor.delete(slot);
    for (const [subscription, at] of lastCall)
      if (now - at > sessionOptions.idleMs) lastCall.delete(subscription);
    // While loops hold every worker, one idle worker stands ready for the other subscriptions using the runtime (a
    // worker takes a moment to start). None is started for the holders alone: their further calls wait for their
    // share of threads anyway, and a start costs the cores the loops leave to the event loop.
    if (!slots.some((slot) => slot.running.size === 0) && othersWaitingFor(now)) startExtra();
    // Extra workers stop once idle and no worker was held for a while, all but one (the spare): loops that end at
    // their time limit are often called again at once, and a worker stopped and started again costs the cores.
    if (slots.some((slot) => held(slot, now))) lastHeld = now;
    if (now - lastHeld > EXTRA_LINGER_MS) {
      const idle = slots.filter((candidate) => candidate.extra && candidate.running.size === 0);
      const spareBusy = slots.some((candidate) => candidate.extra && candidate.running.size > 0);
      for (const slot of idle.slice(spareBusy ? 0 : 1)) {
        slots.splice(slots.indexOf(slot), 1);
        sessions.forget(slot);
        forgetPrepared(slot);
        void slot.port.terminate();
      }
    }
    // Invocations that waited for a worker not held: one may have become free without ending a job.
    pump();
  }, WATCH_INTERVAL_MS).unref();

  return {
    invoke(invocation) {
      sequence += 1;
      return submit(
        {
          type: 'invoke',
          id: sequence,
          key: versionKeyOf(invocation),
          session: sessionOf(invocation),
          script: invocation.script,
          options: invocation.options,
          method: invocation.method,
          args: invocation.args,
          callOptions: invocation.callOptions,
          deadline: Date.now() + options.limits.timeoutMs,
        },
        invocation,
      );
    },
    async check(script) {
      sequence += 1;
      const outcome = await submit({ type: 'check', id: sequence, script }, undefined);
      const error = outcome.error;
      if (error === undefined) return;
      // Only what the script itself causes is the publisher's to fix (422); anything else is the runtime's.
      if (error.code === 'CONNECTOR_ERROR')
        throw new ServiceError('UNAVAILABLE', `The connector runtime failed: ${error.message}`);
      throw new RuntimeError(error.code, error.message);
    },
    prepare(version) {
      // An idle worker of the pool's own, or none: a worker takes its messages in turn, and a load queued there ahead
      // of checks and calls made them wait (publishes at once each waited for the loads of those before it).
      const slot = slots.find((candidate) => !candidate.extra && candidate.running.size === 0);
      if (closed || !slot) return;
      const key = versionKeyOf(version);
      slot.prepare({ type: 'prepare', key, script: version.script, options: version.options });
      preparedOn.delete(key);
      preparedOn.set(key, slot);
      // More than the workers keep (`preparedMax` each), the oldest forgotten first.
      for (const old of preparedOn.keys()) {
        if (preparedOn.size <= PREPARED_HINTS) break;
        preparedOn.delete(old);
      }
    },
    async close() {
      closed = true;
      clearInterval(watchdog);
      for (const job of [...fair.drain(), ...checks.splice(0)])
        job.resolve(failed({ code: 'CONNECTOR_ERROR', message: 'shutting down' }));
      await Promise.all(slots.splice(0).map((slot) => slot.port.terminate()));
    },
  };
};

/** Hints of `preparedOn` kept: a worker keeps 32 versions loaded ahead at most, and a pool has a few workers. */
const PREPARED_HINTS = 256;

/** A version's key in the workers: its scripts and the instances loaded ahead are kept under it. */
const versionKeyOf = (version: { connectorId: string; version: string }): string =>
  `${version.connectorId}@${version.version}`;

/**
 * A session: the connector's id and version, the usage, and the caller (the token's issuer and subject). Nothing of
 * one session's instance is ever seen by another.
 */
const sessionOf = (invocation: Invocation): string =>
  [
    invocation.connectorId,
    invocation.version,
    invocation.usage,
    invocation.caller.issuer ?? '',
    invocation.caller.userId,
  ].join('\u0000');

const EMPTY = new Uint8Array(0);

/** A body the sandbox gets as a pointer only (its `text` empty), within the response size limit. */
const keptHere = (response: HostFetchResponse): boolean => {
  const type = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return type !== undefined && isBinaryType(type);
};

const sessionKeyOf = (job: Job): string => (job.message.type === 'invoke' ? job.message.session : '');

const tenancyOf = (invocation: Invocation) => ({
  subscription: invocation.subscriptionId,
  caller: `${invocation.caller.issuer ?? ''}\u0000${invocation.caller.userId}`,
});

/** Whether an invocation's wall time ran out by `at` (epoch ms); a check has no deadline of its own here. */
const pastDeadline = (job: Job, at: number): boolean =>
  job.message.type === 'invoke' && at > job.message.deadline;

const failed = (error: NonNullable<InvocationOutcome['error']>): InvocationOutcome => ({
  result: undefined,
  error,
  fetches: [],
  durationMs: 0,
});

const toConnectorError = (error: WireError | undefined): InvocationOutcome['error'] =>
  error === undefined ? undefined : { code: 'CONNECTOR_ERROR', message: error.message };

/** Only the runtime's own refusals cross as codes; a network failure stays an ordinary error for the connector. */
const wireOf = (error: unknown): WireError =>
  error instanceof RuntimeError
    ? { code: error.code, message: error.message }
    : { message: error instanceof Error ? error.message : String(error) };
