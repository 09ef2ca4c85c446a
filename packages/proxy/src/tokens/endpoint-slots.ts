/**
 * At most `slots` token requests at once per token endpoint and connector in this process: a provider that
 * hangs holds only its own slots, never another endpoint's or another connector's, and a connector with many users
 * (authorization code refreshes) cannot flood its provider.
 */
export const createEndpointSlots = (slots: number) => {
  const queues = new Map<string, { free: number; waiting: (() => void)[] }>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const entry = queues.get(key) ?? { free: slots, waiting: [] };
    queues.set(key, entry);
    if (entry.free > 0) entry.free--;
    else await new Promise<void>((resolve) => entry.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = entry.waiting.shift();
      if (next) next();
      else if (++entry.free === slots && queues.get(key) === entry) queues.delete(key);
    }
  };
};
