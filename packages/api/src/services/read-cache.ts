import { LRUCache } from 'lru-cache';

/**
 * Answers of the administration API's reads, kept in memory until data behind them may have changed. Two things
 * say so: every write this process makes (`invalidate`, called by the transports once a non-GET operation
 * settles, so a caller's next read sees its own write), and every write from anywhere (the database's change
 * notifications, `Database.watchChanges`). Access checks are read through it too, but run on every request.
 */
export type ReadCache = {
  /**
   * `load`'s answer for `key`: from memory when loaded since the last change, else loaded (concurrent misses of
   * one key share one load). Answers are shared between requests: callers must not mutate them. Errors are not
   * kept. `key` must name everything the answer depends on, "today" included.
   */
  read<T extends NonNullable<unknown>>(key: string, load: () => Promise<T>): Promise<T>;
  /** What `read` would answer from memory for `key`, without waiting; undefined when it would load. */
  peek<T extends NonNullable<unknown>>(key: string): T | undefined;
  invalidate(): void;
};

export type ReadCacheOptions = {
  /** Most answers kept (least recently used go first). */
  max: number;
  /**
   * Most characters of answers kept, their JSON measured once when kept (least recently used go first): bounds the
   * memory however large the answers are (a connector's script), so `max` can be as large as the callers are many.
   */
  maxChars?: number;
  /**
   * False while a change could go unseen (the database's listening connection is down): reads then go to the
   * database, and nothing is kept.
   */
  live: () => boolean;
};

/** An answer's size as JSON, measured once when it is kept (after a load from the database, so cheap beside it). */
const charsOf = (answer: NonNullable<unknown>): number => {
  try {
    return Math.max(1, JSON.stringify(answer)?.length ?? 1);
  } catch {
    // Not JSON (a bigint): counted as a small answer, which every other kind of answer here is.
    return 1024;
  }
};

/** Even with every notification delivered, no answer is older than this: a bound should one ever be missed. */
const MAX_AGE_MS = 5 * 60_000;

export const createReadCache = (options: ReadCacheOptions): ReadCache => {
  const answers = new LRUCache<string, NonNullable<unknown>>({
    max: options.max,
    ttl: MAX_AGE_MS,
    ...(options.maxChars === undefined ? {} : { maxSize: options.maxChars, sizeCalculation: charsOf }),
  });
  const loading = new Map<string, Promise<unknown>>();
  // A load that began before a change must not be kept, nor joined by a read that began after it.
  let generation = 0;

  return {
    read<T extends NonNullable<unknown>>(key: string, load: () => Promise<T>): Promise<T> {
      if (!options.live()) return load();
      const kept = answers.get(key);
      if (kept !== undefined) return Promise.resolve(kept as T);
      const started = generation;
      const flight = `${started}\u0000${key}`;
      const pending = loading.get(flight);
      if (pending) return pending as Promise<T>;
      const loaded = load().then(
        (answer) => {
          loading.delete(flight);
          if (generation === started && options.live()) answers.set(key, answer);
          return answer;
        },
        (error: unknown) => {
          loading.delete(flight);
          throw error;
        },
      );
      loading.set(flight, loaded);
      return loaded;
    },
    peek<T extends NonNullable<unknown>>(key: string): T | undefined {
      return options.live() ? (answers.get(key) as T | undefined) : undefined;
    },
    invalidate() {
      generation++;
      answers.clear();
    },
  };
};

/** No cache: every read loads. For the service tests, which write to the database between calls without a transport. */
export const uncachedReads: ReadCache = {
  read: (_key, load) => load(),
  peek: () => undefined,
  invalidate() {},
};
