import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Histogram, type Registry } from 'prom-client';
import type { RequestLocals } from '../rest/context.ts';

/** Request counts and latency by route template and status: templates keep label cardinality bounded. */
export const httpMetrics = (registry: Registry): RequestHandler => {
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
  return (req, res, next) => {
    const start = performance.now();
    res.on('finish', () => {
      const labels = {
        method: req.method,
        route: (res.locals as RequestLocals).route ?? 'unmatched',
        status: String(res.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - start) / 1000);
    });
    next();
  };
};
