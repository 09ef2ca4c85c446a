/**
 * Which worker holds which session's warm connector instance. A session is (connector id and version, usage, caller:
 * the token's issuer and subject); its calls go to the worker that holds it (affinity), so they share its instance.
 * Plain data, no threads. Sessions idle past `idleMs` end; beyond `maxSessions`, the least recently used idle one ends
 * first. A session whose calls are all running may exceed the bound for as long as they run: only idle ones are ended.
 */
export type SessionEntry<W> = {
  readonly key: string;
  worker: W;
  /** Calls of the session running on its worker now. */
  running: number;
  /** performance.now() of its last call's start or end. */
  lastUsed: number;
};

export type SessionTableOptions = { maxSessions: number; idleMs: number };

export class SessionTable<W> {
  readonly #options: SessionTableOptions;
  /** Insertion order is recency: the least recently used first. */
  readonly #entries = new Map<string, SessionEntry<W>>();

  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): SessionEntry<W> | undefined {
    return this.#entries.get(key);
  }

  /** The session's entry, opened on `worker` if it had none; `ended` lists the sessions given up to make room. */
  open(key: string, worker: () => W, now: number): { entry: SessionEntry<W>; ended: SessionEntry<W>[] } {
    const known = this.#entries.get(key);
    if (known !== undefined) return { entry: known, ended: [] };
    const ended: SessionEntry<W>[] = [];
    for (const entry of this.#entries.values()) {
      if (this.#entries.size < this.#options.maxSessions) break;
      if (entry.running > 0) continue;
      this.#entries.delete(entry.key);
      ended.push(entry);
    }
    const entry: SessionEntry<W> = { key, worker: worker(), running: 0, lastUsed: now };
    this.#entries.set(key, entry);
    return { entry, ended };
  }

  begin(entry: SessionEntry<W>, now: number): void {
    entry.running += 1;
    this.#touch(entry, now);
  }

  end(entry: SessionEntry<W>, now: number): void {
    entry.running = Math.max(0, entry.running - 1);
    this.#touch(entry, now);
  }

  /** Sessions idle past the idle time, taken out of the table. */
  expire(now: number): SessionEntry<W>[] {
    const ended: SessionEntry<W>[] = [];
    for (const entry of this.#entries.values()) {
      // Recency order: the first one used within the idle time ends the search.
      if (now - entry.lastUsed <= this.#options.idleMs) break;
      if (entry.running > 0) continue;
      this.#entries.delete(entry.key);
      ended.push(entry);
    }
    return ended;
  }

  /** Sessions on `worker`, which is gone: forgotten (their next call opens a fresh instance elsewhere). */
  forget(worker: W): void {
    for (const entry of [...this.#entries.values()])
      if (entry.worker === worker) this.#entries.delete(entry.key);
  }

  /** Running calls per worker, for choosing the least busy one. */
  runningOn(worker: W): number {
    let running = 0;
    for (const entry of this.#entries.values()) if (entry.worker === worker) running += entry.running;
    return running;
  }

  #touch(entry: SessionEntry<W>, now: number): void {
    entry.lastUsed = now;
    this.#entries.delete(entry.key);
    this.#entries.set(entry.key, entry);
  }
}
