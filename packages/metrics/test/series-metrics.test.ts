import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram } from '../src/index.ts';

const BUCKETS = [0.001, 0.005, 0.01, 0.1, 1];
const ROUTES = [
  '/api/v1/subscriptions',
  '/grafx/api/v1/environment/{environment}/connectors/{connectorId}/proxy',
];
// Below the first bound, on bounds, between them and above the last: every branch of the bucket search.
const VALUES = [0, 0.0005, 0.001, 0.003, 0.01, 0.07, 1, 4.2];

/** The same metrics twice, prom-client's own on one registry and ours on another, fed the same updates. */
const pair = () => {
  const theirs = new Registry();
  const ours = new Registry();
  const config = { labelNames: ['method', 'route', 'status'] };
  return {
    theirs,
    ours,
    histograms: [
      new Histogram({
        name: 'latency_seconds',
        help: 'Latency',
        ...config,
        buckets: BUCKETS,
        registers: [theirs],
      }),
      new SeriesHistogram({
        name: 'latency_seconds',
        help: 'Latency',
        ...config,
        buckets: BUCKETS,
        registers: [ours],
      }),
    ] as const,
    counters: [
      new Counter({ name: 'requests_total', help: 'Requests', ...config, registers: [theirs] }),
      new SeriesCounter({ name: 'requests_total', help: 'Requests', ...config, registers: [ours] }),
    ] as const,
  };
};

describe('series metrics', () => {
  it('write what prom-client writes for the same observations, as text and as JSON', async () => {
    const { theirs, ours, histograms, counters } = pair();
    for (const [r, route] of ROUTES.entries()) {
      for (const status of ['200', '404']) {
        const labels = { method: 'GET', route, status };
        const histogram = histograms[1].series(labels);
        const counter = counters[1].series(labels);
        for (const value of VALUES.slice(r)) {
          histograms[0].labels(labels).observe(value);
          histogram.observe(value);
          counters[0].labels(labels).inc();
          counter.inc();
        }
      }
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'latency_seconds_bucket{le="0.005",method="GET",route="/api/v1/subscriptions",status="200"} 4',
    );
    // prom-client's values carry `exemplar: null` when exemplars are off; nothing reads it then.
    const withoutExemplars = (json: unknown) =>
      JSON.parse(JSON.stringify(json, (key, value) => (key === 'exemplar' ? undefined : value)));
    expect(withoutExemplars(await ours.getMetricsAsJSON())).toEqual(
      withoutExemplars(await theirs.getMetricsAsJSON()),
    );
  });

  it('forget a removed series and keep the others, as prom-client does', async () => {
    const { theirs, ours, histograms, counters } = pair();
    const kept = { method: 'GET', route: '/kept', status: '200' };
    const removed = { method: 'PUT', route: '/removed', status: '500' };
    for (const labels of [kept, removed]) {
      histograms[0].labels(labels).observe(0.002);
      histograms[1].series(labels).observe(0.002);
      counters[0].labels(labels).inc();
      counters[1].series(labels).inc();
    }
    histograms[0].remove(removed);
    histograms[1].remove(removed);
    counters[0].remove(removed);
    counters[1].remove(removed);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).not.toContain('/removed');
    expect(text).toContain('/kept');
  });

  it('share one series between bindings of the same labels, whatever their order', async () => {
    const { ours, counters } = pair();
    counters[1].series({ method: 'GET', route: '/a', status: '200' }).inc();
    counters[1].series({ status: '200', route: '/a', method: 'GET' }).inc();
    expect(await ours.getSingleMetricAsString('requests_total')).toContain(
      'requests_total{method="GET",route="/a",status="200"} 2',
    );
  });

  it('refuse unknown labels, missing labels and values that are not numbers', () => {
    const { histograms } = pair();
    expect(() => histograms[1].series({ method: 'GET', route: '/a' })).toThrow(/label 'status'/);
    expect(() => histograms[1].series({ method: 'GET', route: '/a', status: '200', user: 'x' })).toThrow(
      /no label 'user'/,
    );
    const series = histograms[1].series({ method: 'GET', route: '/a', status: '200' });
    expect(() => series.observe(Number.NaN)).toThrow(TypeError);
  });
});
