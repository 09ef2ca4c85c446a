import type { ServerResponse } from 'node:http';

const position = Symbol('position in flight');
type Held = ServerResponse & { [position]?: number | undefined };

/**
 * The responses not yet closed, which a shutdown answers with `Connection: close`: a dense array, a response taking
 * the place of the one that leaves.
 *
 * Not a Set, which cost a fifth of a proxied request's CPU. A Set that gains and loses an entry per request rebuilds
 * its table every few dozen requests, and V8 keeps each table it replaces, entries and all, linked to its successor
 * until the next full collection (iterators may still be walking it). Once one of those tables reached the old
 * generation, it held the next one, and every response listed in it, through each young-generation collection: a
 * sixth of everything a proxied request allocated was copied twice and promoted, and each collection took three
 * times as long.
 */
export class ResponsesInFlight {
  readonly #responses: Held[] = [];

  add(res: ServerResponse): void {
    (res as Held)[position] = this.#responses.push(res) - 1;
  }

  delete(res: ServerResponse): void {
    const held = res as Held;
    const index = held[position];
    if (index === undefined) return;
    held[position] = undefined;
    const last = this.#responses.pop() as Held;
    if (last === held) return;
    this.#responses[index] = last;
    last[position] = index;
  }

  values(): readonly ServerResponse[] {
    return this.#responses;
  }
}
