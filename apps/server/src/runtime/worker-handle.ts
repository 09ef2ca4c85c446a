/**
 * The pool's side of one worker thread: the jobs handed to it, when it was last heard from (a worker with work that
 * stays silent past an invocation's deadline is stuck), since when a sandbox runs on it (one run that does not end is
 * a looping sandbox holding its thread), the scripts it was sent, and the claim table through which a job is
 * either begun by the worker or taken back by the pool, never both. No thread of its own: the port is anything that
 * takes messages, so it is tested with a plain object.
 */
import { threadCpuMs } from './thread-cpu.ts';
import type { ToWorker } from './worker-protocol.ts';
import {
  claimCellOf,
  POSTED,
  RUN_CPU_SINCE,
  RUN_SINCE,
  RUN_TO_END,
  THREAD_ID,
  WITHDRAWN,
} from './worker-protocol.ts';

export type WorkerPort = { postMessage(message: ToWorker): void };

type Posted = Extract<ToWorker, { type: 'invoke' | 'check' }>;

/**
 * A worker on which one sandbox run (one event of a call: its start, a fetch or sleep settling) has lasted this long
 * is held by it: new invocations go to another worker. A connector's run takes milliseconds; one looping to its
 * deadline is caught within this, so that other tenants' calls start within a second. One run is the measure, not
 * the worker's silence: a worker busy with many short calls (a hundred in flight, its messages queued, its thread
 * waiting for a core) or still starting is not held, and taking it for held would start a worker early and move its
 * sessions to fresh instances, losing what a connector keeps in `this` between a `query` and its `download`s.
 */
export const HELD_AFTER_MS = 300;
/**
 * CPU a run past HELD_AFTER_MS must have used to hold its thread. A loop on a core of its own uses all of it, so it is
 * caught as before; a load or call that spent the time waiting for a core (other processes of higher priority kept
 * them busy) used a few milliseconds. Taking that one for held moved its session's calls to fresh instances (more
 * loads on the same busy cores), and its own thread made it rest three times as long as it ran.
 */
export const HELD_CPU_MS = 100;
/** How often the CPU of one run not held yet is read again (each reading costs about 15 µs). */
export const CPU_CHECK_MS = 10;

/** Whether a run whose thread had run `since` ms of CPU as it began, and `now` ms now, used enough to hold it. */
export const usedCpuToHold = (since: number | undefined, now: number | undefined): boolean =>
  since === undefined || now === undefined || now - since >= HELD_CPU_MS;

/** Beyond this many versions sent to one worker, the handle forgets them all and sends scripts again. */
const MAX_SCRIPTS_SENT = 64;

export class WorkerHandle<J extends { message: Posted }, P extends WorkerPort = WorkerPort> {
  readonly port: P;
  /** Started beyond the pool's size while the others were held. */
  readonly extra: boolean;
  readonly running = new Map<number, J>();
  /**
   * Binary bodies fetched for this worker's sandboxes, kept here by ref rather than sent over: counted against their
   * sessions' memory in the worker, dropped when it says `release` (or with the worker).
   */
  readonly bodies = new Map<string, Uint8Array>();
  /** When the worker last sent anything, or was given work while it had none (performance.now()). */
  #lastHeard: number;
  /** Since when a sandbox runs on the worker (worker-protocol.ts `sandboxRun`). */
  readonly #sandboxRun: BigInt64Array;
  /** Versions whose script this worker was sent: their invocations go without it (it answers `need-script`). */
  readonly #scripts = new Set<string>();
  readonly #claims: Int32Array;
  /** The RUN_SINCE of the run last found holding the thread, and of the one whose CPU was read last, and when. */
  #heldRun = 0n;
  #cpuCheckedRun = 0n;
  #cpuCheckedAt = 0;

  constructor(port: P, claims: Int32Array, sandboxRun: BigInt64Array, extra: boolean, now: number) {
    this.port = port;
    this.#claims = claims;
    this.#sandboxRun = sandboxRun;
    this.extra = extra;
    this.#lastHeard = now;
  }

  heard(now: number): void {
    this.#lastHeard = now;
  }

  /** Silent since `now - ms` while it has work. */
  silentFor(now: number, ms: number): boolean {
    return this.running.size > 0 && now - this.#lastHeard > ms;
  }

  /** A sandbox runs on the worker's thread now (held or not yet). */
  inRun(): boolean {
    return Atomics.load(this.#sandboxRun, RUN_SINCE) !== 0n;
  }

  /**
   * One sandbox run has held the worker's thread since before `now - HELD_AFTER_MS`, and used HELD_CPU_MS of it
   * (where the thread's CPU time is known).
   */
  held(now: number): boolean {
    const since = Atomics.load(this.#sandboxRun, RUN_SINCE);
    if (since === 0n || now - (Number(since) - performance.timeOrigin) <= HELD_AFTER_MS) return false;
    if (since === this.#heldRun) return true;
    if (since === this.#cpuCheckedRun && now - this.#cpuCheckedAt < CPU_CHECK_MS) return false;
    const cpuSince = Atomics.load(this.#sandboxRun, RUN_CPU_SINCE);
    const cpuNow = threadCpuMs(Number(Atomics.load(this.#sandboxRun, THREAD_ID)));
    // Another run began while the CPU was read: it is younger than HELD_AFTER_MS.
    if (Atomics.load(this.#sandboxRun, RUN_SINCE) !== since) return false;
    if (usedCpuToHold(cpuSince < 0n ? undefined : Number(cpuSince) / 1000, cpuNow)) {
      this.#heldRun = since;
      return true;
    }
    this.#cpuCheckedRun = since;
    this.#cpuCheckedAt = now;
    return false;
  }

  /** Since when the run holding the thread runs (performance.now() time), or undefined when none does. */
  runSince(): number | undefined {
    const since = Number(Atomics.load(this.#sandboxRun, RUN_SINCE));
    return since === 0 ? undefined : since - performance.timeOrigin;
  }

  /** Asks the worker to end the run on its thread now (runtime-worker.ts): that run only, should another begin first. */
  endRun(): void {
    const since = Atomics.load(this.#sandboxRun, RUN_SINCE);
    if (since !== 0n) Atomics.store(this.#sandboxRun, RUN_TO_END, since);
  }

  give(job: J, now: number): void {
    if (this.running.size === 0) this.#lastHeard = now;
    this.running.set(job.message.id, job);
    this.#post(job.message);
  }

  /** The worker no longer holds the script of this job's version: sent again, with it. */
  resend(id: number): void {
    const job = this.running.get(id);
    if (job?.message.type !== 'invoke') return;
    this.#scripts.delete(job.message.key);
    this.#post(job.message);
  }

  /** Takes back the jobs the worker was sent but has not begun; a job begun stays (it runs exactly once). */
  takeBack(): J[] {
    const taken: J[] = [];
    for (const [id, job] of this.running) {
      if (!this.#withdraw(id)) continue;
      this.running.delete(id);
      taken.push(job);
    }
    return taken;
  }

  /** A job answered without the worker (past its deadline): if not begun yet, the worker must never begin it. */
  drop(id: number): J | undefined {
    const job = this.running.get(id);
    this.running.delete(id);
    this.#withdraw(id);
    return job;
  }

  endSession(session: string): void {
    this.port.postMessage({ type: 'end-session', session });
  }

  /** Has the worker load an instance of a version ahead of its first call; it keeps the script too. */
  prepare(message: Extract<ToWorker, { type: 'prepare' }>): void {
    this.#remember(message.key);
    this.port.postMessage(message);
  }

  #withdraw(id: number): boolean {
    return Atomics.compareExchange(this.#claims, claimCellOf(id), POSTED, WITHDRAWN) === POSTED;
  }

  /** Sends a job, leaving out a script the worker was already sent. */
  #post(message: Posted): void {
    Atomics.store(this.#claims, claimCellOf(message.id), POSTED);
    if (message.type === 'check') {
      this.port.postMessage(message);
      return;
    }
    if (this.#scripts.has(message.key)) {
      this.port.postMessage({ ...message, script: undefined });
      return;
    }
    this.#remember(message.key);
    this.port.postMessage(message);
  }

  #remember(key: string): void {
    if (this.#scripts.size >= MAX_SCRIPTS_SENT) this.#scripts.clear();
    this.#scripts.add(key);
  }
}
