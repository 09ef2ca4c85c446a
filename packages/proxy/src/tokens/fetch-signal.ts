import type { ChangeWatch, Database } from '@platform/store';
import { TOKEN_FETCH_CHANNEL } from './fetch-lease.ts';

/** Armed before looking at a key's state, so a notification that arrives while looking is not missed. */
export type ArmedWait = {
  /** Resolves at the key's next notification (or one since arming), or after `maxMs`. */
  wait(maxMs: number): Promise<void>;
  cancel(): void;
};

/**
 * Wakes the waiters of a token cache key when any replica announces the outcome of its fetch. A lost listening
 * connection wakes everyone (a notification may have been missed); waiters also look again on their own after
 * `maxMs`, so nothing depends on a notification arriving.
 */
export type FetchSignal = {
  arm(key: string): Promise<ArmedWait>;
  stop(): Promise<void>;
};

export const createFetchSignal = (database: Database): FetchSignal => {
  const armed = new Map<string, Set<() => void>>();
  const wakeAll = () => {
    for (const set of armed.values()) for (const wake of set) wake();
  };
  let watch: Promise<ChangeWatch> | undefined;
  return {
    async arm(key) {
      watch ??= database.listen(TOKEN_FETCH_CHANNEL, (payload) => {
        if (payload === undefined) return wakeAll();
        for (const wake of armed.get(payload) ?? []) wake();
      });
      await watch;
      const entry = armed.get(key) ?? new Set<() => void>();
      armed.set(key, entry);
      let notified = false;
      let resolve: (() => void) | undefined;
      let timer: NodeJS.Timeout | undefined;
      const wake = () => {
        notified = true;
        resolve?.();
      };
      const cancel = () => {
        clearTimeout(timer);
        entry.delete(wake);
        if (entry.size === 0 && armed.get(key) === entry) armed.delete(key);
      };
      entry.add(wake);
      return {
        async wait(maxMs) {
          if (!notified)
            await new Promise<void>((done) => {
              resolve = done;
              timer = setTimeout(done, maxMs);
            });
          cancel();
        },
        cancel,
      };
    },
    async stop() {
      wakeAll();
      if (watch) await (await watch).stop();
    },
  };
};
