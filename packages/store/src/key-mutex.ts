/**
 * In-process stand-in for PostgreSQL advisory locks on PGlite: one PGlite data folder is only ever opened by one
 * process, so serialising callers within this process is all the exclusion there is to get.
 */
export const createKeyMutex = () => {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const previous = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      // Forget the key once nobody queued behind us, so the map does not grow with every key ever used.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
};
