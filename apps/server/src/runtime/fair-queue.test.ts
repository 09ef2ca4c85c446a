import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.ts';

const tenancy = (subscription: string, caller = 'user') => ({ subscription, caller });

describe('the fair queue of the runtime', () => {
  it('takes subscriptions in turn, whatever the backlog of one', () => {
    const queue = new FairQueue<string>({ running: 100, waiting: 100 });
    for (let i = 0; i < 5; i++) queue.offer(`b${i}`, tenancy('B'));
    queue.offer('a0', tenancy('A'));
    expect([queue.take(), queue.take(), queue.take()]).toEqual(['b0', 'a0', 'b1']);
  });

  it("starts a newcomer's call at once although one subscription holds every running slot", () => {
    const queue = new FairQueue<string>({ running: 4, waiting: 16 });
    for (let i = 0; i < 10; i++) queue.offer(`b${i}`, tenancy('B'));
    const started = [queue.take(), queue.take(), queue.take(), queue.take()];
    expect(started).toEqual(['b0', 'b1', 'b2', 'b3']);
    expect(queue.take()).toBeUndefined();
    queue.offer('a0', tenancy('A'));
    expect(queue.take()).toBe('a0');
    // B is over its share now (two of four): its backlog waits until its running calls end.
    expect(queue.take()).toBeUndefined();
    for (const done of ['b0', 'b1']) queue.done(done);
    expect(queue.take()).toBeUndefined();
    queue.done('b2');
    expect(queue.take()).toBe('b4');
  });

  it('refuses a subscription over its share of the queue (503) while another is still taken', () => {
    const queue = new FairQueue<string>({ running: 1, waiting: 8 });
    const accepted = Array.from({ length: 12 }, (_, i) => queue.offer(`b${i}`, tenancy('B')));
    expect(accepted.filter(Boolean)).toHaveLength(8);
    expect(queue.offer('a0', tenancy('A'))).toBe(true);
    // With two subscriptions, B's share is half the queue: it stays refused until it is below it.
    expect(queue.offer('b-more', tenancy('B'))).toBe(false);
    expect(queue.offer('a1', tenancy('A'))).toBe(true);
  });

  it('shares a subscription between its callers', () => {
    const queue = new FairQueue<string>({ running: 100, waiting: 100 });
    for (let i = 0; i < 3; i++) queue.offer(`x${i}`, tenancy('B', 'x'));
    queue.offer('y0', tenancy('B', 'y'));
    expect([queue.take(), queue.take(), queue.take()]).toEqual(['x0', 'y0', 'x1']);
  });

  it("lets a caller past its share of a subscription's running calls while no other caller of it waits", () => {
    const queue = new FairQueue<string>({ running: 8, waiting: 32 });
    for (const caller of ['a', 'b', 'c']) queue.offer(`${caller}0`, tenancy('S', caller));
    expect([queue.take(), queue.take(), queue.take()]).toEqual(['a0', 'b0', 'c0']);
    // An editor's six downloads at once: its share is 2 of 8 among four callers, yet five slots are free.
    for (let i = 0; i < 6; i++) queue.offer(`x${i}`, tenancy('S', 'x'));
    const started = Array.from({ length: 6 }, () => queue.take());
    expect(started).toEqual(['x0', 'x1', 'x2', 'x3', 'x4', undefined]);
    // Another caller below its share comes first as soon as a slot is free.
    queue.offer('b1', tenancy('S', 'b'));
    queue.done('x0');
    expect(queue.take()).toBe('b1');
    queue.done('x1');
    expect(queue.take()).toBe('x5');
  });

  it('passes over a call no worker can take now, and puts a call back at the head of its queue', () => {
    const queue = new FairQueue<string>({ running: 10, waiting: 10 });
    queue.offer('b0', tenancy('B'));
    queue.offer('a0', tenancy('A'));
    expect(queue.take((item) => item !== 'b0')).toBe('a0');
    queue.requeue('a0');
    expect(queue.running).toBe(0);
    expect(queue.drop((item) => item === 'b0')).toEqual(['b0']);
    expect(queue.take()).toBe('a0');
  });
});
