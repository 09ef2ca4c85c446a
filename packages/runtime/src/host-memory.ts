/**
 * What the host holds for one session outside the interpreter: response bodies kept behind ArrayBufferPointers and
 * `data:` URLs decoded. They count against the session's memory limit (RUNTIME_MEMORY_MB), as the interpreter's heap
 * does, so no call can make the host hold more than that for it. Bodies a running call fetched are its own; once that
 * call has ended they stay available to the session's later calls (a `query` that fetched, a `download` that returns
 * the pointer) until their room is needed, the oldest given up first.
 */
import { RuntimeError } from './errors.ts';

export type KeptBody = { contentType: string; body: Uint8Array };

type Entry = KeptBody & { owner: object; ended: boolean };

export class HostMemory {
  readonly limitBytes: number;
  #heldBytes = 0;
  /** Insertion order is age: the oldest first. */
  readonly #kept = new Map<string, Entry>();

  constructor(limitBytes: number) {
    this.limitBytes = limitBytes;
  }

  /** Bytes a new body may take now, counting the room that bodies of ended calls would give up. */
  available(): number {
    let free = this.limitBytes - this.#heldBytes;
    for (const entry of this.#kept.values()) if (entry.ended) free += entry.body.byteLength;
    return Math.max(0, free);
  }

  /** Keeps a body for `owner` (a call) under a new unguessable id; MEMORY_LIMIT when it cannot fit. */
  keep(owner: object, kept: KeptBody): string {
    const size = kept.body.byteLength;
    for (const [id, entry] of this.#kept) {
      if (this.#heldBytes + size <= this.limitBytes) break;
      if (!entry.ended) continue;
      this.#kept.delete(id);
      this.#heldBytes -= entry.body.byteLength;
    }
    if (this.#heldBytes + size > this.limitBytes) throw memoryLimit(this.limitBytes);
    const id = crypto.randomUUID();
    this.#kept.set(id, { ...kept, owner, ended: false });
    this.#heldBytes += size;
    return id;
  }

  get(id: string): KeptBody | undefined {
    return this.#kept.get(id);
  }

  /** The call ended: its bodies may make room for others from now on. */
  release(owner: object): void {
    for (const entry of this.#kept.values()) if (entry.owner === owner) entry.ended = true;
  }

  clear(): void {
    this.#kept.clear();
    this.#heldBytes = 0;
  }

  get heldBytes(): number {
    return this.#heldBytes;
  }
}

export const memoryLimit = (memoryBytes: number): RuntimeError =>
  new RuntimeError(
    'MEMORY_LIMIT',
    `the connector exceeded the memory limit of ${Math.round(memoryBytes / 1048576)} MiB (RUNTIME_MEMORY_MB), bytes the host holds for it included`,
  );
