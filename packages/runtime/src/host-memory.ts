/**
 * What the host holds for one session outside the interpreter: response bodies kept behind ArrayBufferPointers,
 * `data:` URLs decoded and the files handed to `upload`. They count against the session's memory limit (RUNTIME_MEMORY_MB), as the interpreter's heap
 * does, so no call can make the host hold more than that for it. Bodies a running call fetched are its own; once that
 * call has ended they stay available to the session's later calls (a `query` that fetched, a `download` that returns
 * the pointer) within an eighth of the session's memory and until their room is needed, the oldest given up first.
 */
import { RuntimeError } from './errors.ts';
import type { KeptElsewhere } from './types.ts';

/** A body, or (`kept`) the length and handle of one its port keeps outside the runtime, `body` then empty. */
export type KeptBody = { contentType: string; body: Uint8Array; kept?: KeptElsewhere | undefined };

const sizeOf = (kept: KeptBody): number => kept.kept?.bytes ?? kept.body.byteLength;

type Entry = KeptBody & { owner: object; ended: boolean };

/** Bodies of ended calls kept for the session's later calls: at most this part of its memory, the oldest dropped. */
const ENDED_SHARE = 8;

export class HostMemory {
  readonly limitBytes: number;
  #heldBytes = 0;
  /** Bytes of ended calls' bodies, which make room for others when needed. */
  #endedBytes = 0;
  /** Insertion order is age: the oldest first. */
  readonly #kept = new Map<string, Entry>();
  readonly #byOwner = new Map<object, string[]>();
  /** Bytes held for a call without a pointer of their own (its uploaded files), until the call ends. */
  readonly #charged = new Map<object, number>();

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  /** Bytes a new body may take now, counting the room that bodies of ended calls would give up. */
  available(): number {
    return Math.max(0, this.limitBytes - this.#heldBytes + this.#endedBytes);
  }

  /** Keeps a body for `owner` (a call) under a new unguessable id; MEMORY_LIMIT when it cannot fit. */
  keep(owner: object, kept: KeptBody): string {
    const size = sizeOf(kept);
    if (this.#heldBytes + size > this.limitBytes) this.#dropEnded(this.limitBytes - size);
    if (this.#heldBytes + size > this.limitBytes) throw memoryLimit(this.limitBytes);
    const id = crypto.randomUUID();
    this.#kept.set(id, { ...kept, owner, ended: false });
    this.#heldBytes += size;
    const ids = this.#byOwner.get(owner);
    if (ids === undefined) this.#byOwner.set(owner, [id]);
    else ids.push(id);
    return id;
  }

  /** Counts `bytes` the host holds for `owner` (a call) until `release(owner)`; MEMORY_LIMIT when they cannot fit. */
  charge(owner: object, bytes: number): void {
    if (this.#heldBytes + bytes > this.limitBytes) this.#dropEnded(this.limitBytes - bytes);
    if (this.#heldBytes + bytes > this.limitBytes) throw memoryLimit(this.limitBytes);
    this.#heldBytes += bytes;
    this.#charged.set(owner, (this.#charged.get(owner) ?? 0) + bytes);
  }

  get(id: string): KeptBody | undefined {
    return this.#kept.get(id);
  }

  /**
   * The call ended: its bodies may make room for others from now on, and stay for the session's later calls only
   * within an eighth of its memory, the one a `download` answered with included (a connector may keep it and answer
   * the same download again from it: a pointer lives as long as its session, as far as room allows).
   */
  release(owner: object): void {
    this.#heldBytes -= this.#charged.get(owner) ?? 0;
    this.#charged.delete(owner);
    for (const id of this.#byOwner.get(owner) ?? []) {
      const entry = this.#kept.get(id);
      if (entry === undefined || entry.ended) continue;
      entry.ended = true;
      this.#endedBytes += sizeOf(entry);
    }
    this.#byOwner.delete(owner);
    this.#dropEnded(this.limitBytes / ENDED_SHARE, true);
  }

  clear(): void {
    for (const entry of this.#kept.values()) entry.kept?.release();
    this.#kept.clear();
    this.#byOwner.clear();
    this.#charged.clear();
    this.#heldBytes = 0;
    this.#endedBytes = 0;
  }

  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** Drops ended calls' bodies, the oldest first, until what is held (`endedOnly`: what ended calls hold) fits `bytes`. */
  #dropEnded(bytes: number, endedOnly = false): void {
    for (const [id, entry] of this.#kept) {
      if ((endedOnly ? this.#endedBytes : this.#heldBytes) <= bytes || this.#endedBytes === 0) break;
      if (!entry.ended) continue;
      this.#kept.delete(id);
      entry.kept?.release();
      this.#heldBytes -= sizeOf(entry);
      this.#endedBytes -= sizeOf(entry);
    }
  }
}

export const memoryLimit = (memoryBytes: number): RuntimeError =>
  new RuntimeError(
    'MEMORY_LIMIT',
    `the connector exceeded the memory limit of ${Math.round(memoryBytes / 1048576)} MiB (RUNTIME_MEMORY_MB), bytes the host holds for it included`,
  );
