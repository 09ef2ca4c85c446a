import { describe, expect, it } from 'vitest';
import { createReadCache } from './read-cache.ts';

/** A load whose answer the test releases when it wants, counting how often it ran. */
const gate = <T>(answer: T) => {
  let release: () => void = () => {};
  let runs = 0;
  const load = () => {
    runs++;
    return new Promise<T>((resolve) => {
      release = () => resolve(answer);
    });
  };
  return { load, release: () => release(), runs: () => runs };
};

describe('read cache', () => {
  it('keeps an answer until invalidated, and shares one load between concurrent misses', async () => {
    const cache = createReadCache({ max: 10, live: () => true });
    const first = gate({ n: 1 });
    const a = cache.read('k', first.load);
    const b = cache.read('k', first.load);
    first.release();
    expect(await a).toBe(await b);
    expect(first.runs()).toBe(1);
    expect(await cache.read('k', () => Promise.resolve({ n: 2 }))).toEqual({ n: 1 });

    cache.invalidate();
    expect(await cache.read('k', () => Promise.resolve({ n: 3 }))).toEqual({ n: 3 });
  });

  it('does not keep nor share a load that began before a change', async () => {
    const cache = createReadCache({ max: 10, live: () => true });
    const before = gate({ n: 'before' });
    const pending = cache.read('k', before.load);
    cache.invalidate();
    // A read after the change must not join the load that may have missed it.
    const after = cache.read('k', () => Promise.resolve({ n: 'after' }));
    before.release();
    expect(await pending).toEqual({ n: 'before' });
    expect(await after).toEqual({ n: 'after' });
    expect(await cache.read('k', () => Promise.resolve({ n: 'again' }))).toEqual({ n: 'after' });
  });

  it('keeps no error', async () => {
    const cache = createReadCache({ max: 10, live: () => true });
    await expect(cache.read('k', () => Promise.reject(new Error('database away')))).rejects.toThrow(
      'database away',
    );
    expect(await cache.read('k', () => Promise.resolve({ n: 1 }))).toEqual({ n: 1 });
  });

  it('reads through, keeping nothing, while changes could go unseen', async () => {
    let live = false;
    const cache = createReadCache({ max: 10, live: () => live });
    expect(await cache.read('k', () => Promise.resolve({ n: 1 }))).toEqual({ n: 1 });
    expect(await cache.read('k', () => Promise.resolve({ n: 2 }))).toEqual({ n: 2 });
    live = true;
    // Loaded while live, but the watch went down before the answer came: not kept.
    const slow = gate({ n: 3 });
    const pending = cache.read('k', slow.load);
    live = false;
    slow.release();
    await pending;
    live = true;
    expect(await cache.read('k', () => Promise.resolve({ n: 4 }))).toEqual({ n: 4 });
  });

  it('holds at most `max` answers', async () => {
    const cache = createReadCache({ max: 2, live: () => true });
    for (const key of ['a', 'b', 'c']) await cache.read(key, () => Promise.resolve({ key }));
    expect(await cache.read('a', () => Promise.resolve({ key: 'reloaded' }))).toEqual({ key: 'reloaded' });
  });

  it('holds at most `maxChars` of answers as JSON, however many it may count', async () => {
    const cache = createReadCache({ max: 1000, maxChars: 300, live: () => true });
    const script = 'x'.repeat(100);
    for (const key of ['a', 'b', 'c']) await cache.read(key, () => Promise.resolve({ key, script }));
    // Three answers of some 125 characters do not fit in 300: the least recently used went.
    expect(await cache.read('a', () => Promise.resolve({ key: 'reloaded', script }))).toMatchObject({
      key: 'reloaded',
    });
    expect(await cache.read('c', () => Promise.resolve({ key: 'reloaded', script }))).toMatchObject({
      key: 'c',
    });
  });
});
