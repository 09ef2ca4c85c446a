/**
 * Fair shares of the runtime's capacity: calls running at once and calls waiting, shared between subscriptions, and
 * within one between its callers. Plain data, no threads: the pool asks it whether a call may wait (`offer`: false is
 * 503 RUNTIME_BUSY), which waiting call starts next (`take`, round robin over subscriptions, then over a
 * subscription's callers), and tells it when a call ends (`done`).
 *
 * A share is the capacity divided by the subscriptions with calls running or waiting (at least one each), and a
 * subscription's share likewise between its callers. A caller's share is not a cap while no other caller of its
 * subscription waits below its own: the subscription's room is never left idle while one of its callers has work.
 * A subscription at its share of running calls starts no more while others are below theirs; the pool may then run
 * up to twice its nominal capacity, so a newcomer starts at once even when one subscription's backlog had taken every
 * slot before it came.
 */
export type Tenancy = { subscription: string; caller: string };

type Bucket<T> = { running: number; waiting: T[] };
type Subscription<T> = Bucket<T> & { callers: Map<string, Bucket<T>> };

export type FairQueueLimits = { running: number; waiting: number };

export class FairQueue<T> {
  readonly #limits: FairQueueLimits;
  /** Subscriptions with calls running or waiting; insertion order is whose turn comes first. */
  readonly #subscriptions = new Map<string, Subscription<T>>();
  readonly #tenancy = new Map<T, Tenancy>();
  #running = 0;
  #waiting = 0;

  constructor(limits: FairQueueLimits) {
    this.#limits = limits;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting;
  }

  /** Queues `item`; false when its subscription (or its caller within it) already waits with its whole share. */
  offer(item: T, tenancy: Tenancy): boolean {
    const subscription = this.#subscriptions.get(tenancy.subscription);
    const subscriptions = this.#subscriptions.size + (subscription === undefined ? 1 : 0);
    const share = shareOf(this.#limits.waiting, subscriptions);
    if (subscription !== undefined && subscription.waiting.length >= share) return false;
    const caller = subscription?.callers.get(tenancy.caller);
    const callers = (subscription?.callers.size ?? 0) + (caller === undefined ? 1 : 0);
    if (caller !== undefined && caller.waiting.length >= shareOf(share, callers)) return false;
    const sub = this.#subscription(tenancy.subscription);
    const bucket = this.#caller(sub, tenancy.caller);
    sub.waiting.push(item);
    bucket.waiting.push(item);
    this.#tenancy.set(item, tenancy);
    this.#waiting += 1;
    return true;
  }

  /**
   * The next waiting call that may start now, taken out of the queue and counted as running: subscriptions in turn,
   * each below its running share, and within one its callers in turn. `eligible` may pass over a call (no worker for
   * it now); undefined when none may start.
   */
  take(eligible: (item: T) => boolean = () => true): T | undefined {
    const subscriptions = this.#subscriptions.size;
    if (this.#running >= 2 * this.#limits.running) return undefined;
    for (const [name, sub] of this.#subscriptions) {
      if (sub.waiting.length === 0) continue;
      const share = shareOf(this.#limits.running, subscriptions);
      if (sub.running >= share) continue;
      const callerShare = shareOf(share, sub.callers.size);
      // Callers below their share first; when none of them can start a call, the subscription's share is not left
      // idle: a caller over its share (an editor's six downloads at once) takes the room no other caller waits for.
      const next =
        this.#nextOf(sub, eligible, (bucket) => bucket.running < callerShare) ??
        this.#nextOf(sub, eligible, () => true);
      if (next !== undefined) {
        const [callerName, bucket, item] = next;
        bucket.waiting.shift();
        sub.waiting.splice(sub.waiting.indexOf(item), 1);
        bucket.running += 1;
        sub.running += 1;
        this.#running += 1;
        this.#waiting -= 1;
        // Served: to the end of the turn, within the subscription and among subscriptions.
        sub.callers.delete(callerName);
        sub.callers.set(callerName, bucket);
        this.#subscriptions.delete(name);
        this.#subscriptions.set(name, sub);
        return item;
      }
    }
    return undefined;
  }

  /** The first caller of `sub`, in turn, that `may` start a call now, with that call. */
  #nextOf(
    sub: Subscription<T>,
    eligible: (item: T) => boolean,
    may: (bucket: Bucket<T>) => boolean,
  ): [string, Bucket<T>, T] | undefined {
    for (const [callerName, bucket] of sub.callers) {
      const item = bucket.waiting[0];
      if (item === undefined || !may(bucket) || !eligible(item)) continue;
      return [callerName, bucket, item];
    }
    return undefined;
  }

  /** A call taken by `take` ended. */
  done(item: T): void {
    const tenancy = this.#tenancy.get(item);
    if (tenancy === undefined) return;
    this.#tenancy.delete(item);
    const sub = this.#subscriptions.get(tenancy.subscription);
    const bucket = sub?.callers.get(tenancy.caller);
    if (sub === undefined || bucket === undefined) return;
    bucket.running -= 1;
    sub.running -= 1;
    this.#running -= 1;
    this.#tidy(tenancy, sub, bucket);
  }

  /** A running call goes back to the head of its caller's queue (its worker never began it). */
  requeue(item: T): void {
    const tenancy = this.#tenancy.get(item);
    const sub = tenancy && this.#subscriptions.get(tenancy.subscription);
    const bucket = tenancy && sub?.callers.get(tenancy.caller);
    if (sub === undefined || bucket === undefined) return;
    bucket.running -= 1;
    sub.running -= 1;
    this.#running -= 1;
    bucket.waiting.unshift(item);
    sub.waiting.unshift(item);
    this.#waiting += 1;
  }

  /** Takes out waiting calls that `expired` picks (past their deadline), without starting them. */
  drop(expired: (item: T) => boolean): T[] {
    const dropped: T[] = [];
    for (const sub of [...this.#subscriptions.values()]) {
      for (const item of sub.waiting.filter(expired)) {
        const tenancy = this.#tenancy.get(item);
        const bucket = tenancy && sub.callers.get(tenancy.caller);
        if (tenancy === undefined || bucket === undefined) continue;
        sub.waiting.splice(sub.waiting.indexOf(item), 1);
        bucket.waiting.splice(bucket.waiting.indexOf(item), 1);
        this.#tenancy.delete(item);
        this.#waiting -= 1;
        dropped.push(item);
        this.#tidy(tenancy, sub, bucket);
      }
    }
    return dropped;
  }

  /** Every waiting call, taken out (the pool closing). */
  drain(): T[] {
    return this.drop(() => true);
  }

  #subscription(name: string): Subscription<T> {
    let sub = this.#subscriptions.get(name);
    if (sub === undefined) {
      sub = { running: 0, waiting: [], callers: new Map() };
      this.#subscriptions.set(name, sub);
    }
    return sub;
  }

  #caller(sub: Subscription<T>, name: string): Bucket<T> {
    let bucket = sub.callers.get(name);
    if (bucket === undefined) {
      bucket = { running: 0, waiting: [] };
      sub.callers.set(name, bucket);
    }
    return bucket;
  }

  #tidy(tenancy: Tenancy, sub: Subscription<T>, bucket: Bucket<T>): void {
    if (bucket.running === 0 && bucket.waiting.length === 0) sub.callers.delete(tenancy.caller);
    if (sub.running === 0 && sub.waiting.length === 0) this.#subscriptions.delete(tenancy.subscription);
  }
}

const shareOf = (capacity: number, among: number): number =>
  Math.max(1, Math.floor(capacity / Math.max(1, among)));
