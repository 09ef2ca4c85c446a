import type { ServerResponse } from 'node:http';
import { SeriesCounter, SeriesHistogram } from '@platform/metrics';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { LocalsResponse } from '../rest/context.ts';
import { byRouteStatusMethod } from './by-route-status-method.ts';

/** A status outside 100–599 (a proxied target's 600–999) is `other`: no peer adds series by inventing statuses. */
const statusLabel = (status: number) => (status >= 100 && status <= 599 ? String(status) : 'other');

/**
 * Request counts and latency by route template and status: templates keep label cardinality bounded. The returned
 * function is called once per request when its response closes, by the front door (front-door.ts); a request whose
 * answer never completed (the client went away first) is not counted, as before.
 */
export const httpMetrics = (registry: Registry): ((res: ServerResponse) => void) => {
  collectDefaultMetrics({ register: registry });
  const requests = new SeriesCounter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new SeriesHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // The series of each label set, bound once (@platform/metrics: a prom-client child hashes its label object on every
  // update). As bounded as the label sets themselves.
  const seriesOf = byRouteStatusMethod((route, status, method) => {
    const labels = { method, route, status: statusLabel(status) };
    return { counter: requests.series(labels), histogram: duration.series(labels) };
  });
  return (res) => {
    if (!res.writableFinished) return;
    const locals = (res as LocalsResponse).locals;
    const bound = seriesOf(locals.route ?? 'unmatched', res.statusCode, res.req.method ?? '');
    bound.counter.inc();
    bound.histogram.observe((performance.now() - locals.startedAt) / 1000);
  };
};
