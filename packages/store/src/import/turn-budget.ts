import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long an import works in one turn of the event loop before it lets other requests in. On PGlite its
 * statements run on the server's own thread too, so every slice of an import, JavaScript or SQL, is kept about
 * this short: a request that arrives meanwhile waits a few milliseconds, not the whole file. (On the 108 MB bench,
 * 3 ms kept ping p99 under 2x idle for as long an import as before; 2 ms cost 40% more time, 4 ms doubled the p99.)
 */
const TURN_MS = 3;

export type TurnBudget = {
  /** True once the current turn has had its few milliseconds. */
  spent(): boolean;
  /** Waits for a later turn of the event loop (other requests are answered meanwhile) and starts a new budget. */
  next(): Promise<void>;
};

export const turnBudget = (): TurnBudget => {
  let started = performance.now();
  return {
    spent: () => performance.now() - started >= TURN_MS,
    next: async () => {
      await nextTurn();
      started = performance.now();
    },
  };
};
