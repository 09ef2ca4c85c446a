import type { ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Histogram, type Registry } from 'prom-client';
import type { LocalsResponse } from '../rest/context.ts';

/** A status outside 100–599 (a proxied target's 600–999) is `other`: no peer adds series by inventing statuses. */
const statusLabel = (status: number) => (status >= 100 && status <= 599 ? String(status) : 'other');

/**
 * Request counts and latency by route template and status: templates keep label cardinality bounded. The returned
 * function is called once per request, by the front door (front-door.ts).
 */
export const httpMetrics = (registry: Registry): ((res: ServerResponse) => void) => {
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // The children bound to each label set, found by one string key: prom-client would otherwise hash the label
  // object twice per request. As bounded as the label sets themselves (method, route template, status).
  const children = new Map<string, { count: () => void; observe: (seconds: number) => void }>();
  const childrenOf = (method: string, route: string, status: number) => {
    const key = `${method} ${route} ${status}`;
    let bound = children.get(key);
    if (!bound) {
      const labels = { method, route, status: statusLabel(status) };
      const counter = requests.labels(labels);
      const histogram = duration.labels(labels);
      bound = { count: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
      children.set(key, bound);
    }
    return bound;
  };
  // One listener for every request, not a closure per request.
  function finished(this: LocalsResponse) {
    const locals = this.locals;
    const bound = childrenOf(this.req.method ?? '', locals.route ?? 'unmatched', this.statusCode);
    bound.count();
    bound.observe((performance.now() - locals.startedAt) / 1000);
  }
  return (res) => {
    res.on('finish', finished);
  };
};
