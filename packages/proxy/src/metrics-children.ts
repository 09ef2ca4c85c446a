import type { Histogram } from 'prom-client';

type Observer = { observe(seconds: number): void };

/**
 * Pre-bound histogram children per connector and status class, so the hot path does not build a label
 * object per request. Bounded: the label set a connector can produce is tiny, connectors are few thousand.
 */
export const createUpstreamObserver = (histogram: Histogram<'connector' | 'status_class'>, max = 20_000) => {
  const children = new Map<string, Observer>();
  return (connector: string, status: number, seconds: number): void => {
    const statusClass = `${Math.floor(status / 100)}xx`;
    const key = `${connector} ${statusClass}`;
    let child = children.get(key);
    if (!child) {
      if (children.size >= max) children.clear();
      child = histogram.labels({ connector, status_class: statusClass });
      children.set(key, child);
    }
    child.observe(seconds);
  };
};
