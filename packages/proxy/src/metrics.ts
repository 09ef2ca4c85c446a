import { type CounterSeries, type HistogramSeries, SeriesCounter, SeriesHistogram } from '@platform/metrics';
import { Registry } from 'prom-client';
import { statusClass } from './status-class.ts';

/**
 * Connectors with series of their own in a process (docs/configuration.md, "Series are bounded"); the connectors
 * seen after them share the series labelled `connector="other"`. A deleted connector's series go with it and free
 * its place. 200 keeps a scrape of the METRICS_PORT listener, which runs on the server's event loop, near 20 ms
 * (500 connectors' histograms took 110 ms).
 */
export const MAX_CONNECTOR_SERIES = 200;
export const OTHER_CONNECTOR = 'other';

export type ProxyMetrics = {
  tokenRequest(connectorId: string, grant: string, outcome: 'ok' | 'error'): void;
  tokenCache(connectorId: string, result: string): void;
  upstream(connectorId: string, status: number, seconds: number): void;
  /** Removes every series of the connector (it was deleted). */
  forgetConnector(connectorId: string): void;
};

const TOKEN_REQUESTS = {
  name: 'connector_proxy_token_requests_total',
  help: 'Requests made to OAuth 2.0 token endpoints, by connector, grant and outcome',
};
const TOKEN_CACHE = {
  name: 'connector_proxy_token_cache_total',
  help: 'Access token look-ups by connector: hit (memory), shared (store or in-flight), miss (token request)',
};
const UPSTREAM = {
  name: 'connector_proxy_upstream_duration_seconds',
  help: 'Time from sending a proxied request to receiving the target response headers, by connector',
};
const UPSTREAM_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const CONNECTOR_METRICS = new Set([TOKEN_REQUESTS.name, TOKEN_CACHE.name, UPSTREAM.name]);

type Family = {
  tokenRequests: SeriesCounter;
  tokenCache: SeriesCounter;
  upstream: SeriesHistogram;
};

/** The three metrics on `registry`, with a `connector` label or without one. */
const family = (registry: Registry, byConnector: boolean): Family => {
  const connector = byConnector ? ['connector'] : [];
  return {
    tokenRequests: new SeriesCounter({
      ...TOKEN_REQUESTS,
      labelNames: [...connector, 'grant', 'outcome'],
      registers: [registry],
    }),
    tokenCache: new SeriesCounter({
      ...TOKEN_CACHE,
      labelNames: [...connector, 'result'],
      registers: [registry],
    }),
    upstream: new SeriesHistogram({
      ...UPSTREAM,
      labelNames: [...connector, 'status_class'],
      buckets: UPSTREAM_BUCKETS,
      registers: [registry],
    }),
  };
};

/**
 * Per registry: the metrics by connector (on the registry itself, what the operators' METRICS_PORT shows) and the
 * same ones summed over connectors, kept as they are counted (what `/metrics` behind a token shows), so that a
 * scrape never has to sum thousands of series.
 */
const families = new WeakMap<Registry, { byConnector: Family; summed: Family; summedRegistry: Registry }>();

const familiesOf = (registry: Registry) => {
  let found = families.get(registry);
  if (!found) {
    const summedRegistry = new Registry();
    found = { byConnector: family(registry, true), summed: family(summedRegistry, false), summedRegistry };
    families.set(registry, found);
  }
  return found;
};

type Child = CounterSeries | HistogramSeries;

/** Proxies created on one registry (tests, several mounts) share its metrics and its connector places. */
const recorders = new WeakMap<Registry, ProxyMetrics>();

export const createProxyMetrics = (registry: Registry): ProxyMetrics => {
  const existing = recorders.get(registry);
  if (existing) return existing;
  const { byConnector, summed } = familiesOf(registry);
  // Each series' bound child by one string key (no label object hashed per request), grouped by connector so
  // that its removal finds them all.
  const series = new Map<string, Map<string, { child: Child; remove: () => void }>>();
  const summedChildren = new Map<string, Child>();

  // The connectors past the cap share one group that is never removed.
  const others = new Map<string, { child: Child; remove: () => void }>();

  const childOf = <C extends Child>(
    connectorId: string,
    key: string,
    make: (connector: string) => { child: C; remove: () => void },
    makeSummed: () => C,
  ): [C, C] => {
    const id = connectorId.toLowerCase();
    let own = series.get(id);
    if (!own && series.size < MAX_CONNECTOR_SERIES) {
      own = new Map();
      series.set(id, own);
    }
    const group = own ?? others;
    let bound = group.get(key);
    if (!bound) {
      bound = make(own ? id : OTHER_CONNECTOR);
      group.set(key, bound);
    }
    let total = summedChildren.get(key);
    if (!total) {
      total = makeSummed();
      summedChildren.set(key, total);
    }
    return [bound.child as C, total as C];
  };

  const recorder: ProxyMetrics = {
    tokenRequest(connectorId, grant, outcome) {
      const [own, total] = childOf(
        connectorId,
        `r ${grant} ${outcome}`,
        (connector) => ({
          child: byConnector.tokenRequests.series({ connector, grant, outcome }),
          remove: () => byConnector.tokenRequests.remove({ connector, grant, outcome }),
        }),
        () => summed.tokenRequests.series({ grant, outcome }),
      );
      own.inc();
      total.inc();
    },
    tokenCache(connectorId, result) {
      const [own, total] = childOf(
        connectorId,
        `c ${result}`,
        (connector) => ({
          child: byConnector.tokenCache.series({ connector, result }),
          remove: () => byConnector.tokenCache.remove({ connector, result }),
        }),
        () => summed.tokenCache.series({ result }),
      );
      own.inc();
      total.inc();
    },
    upstream(connectorId, status, seconds) {
      const status_class = statusClass(status);
      // The class alone is the key: no key of the other two (`r …`, `c …`) is ever one.
      const [own, total] = childOf(
        connectorId,
        status_class,
        (connector) => ({
          child: byConnector.upstream.series({ connector, status_class }),
          remove: () => byConnector.upstream.remove({ connector, status_class }),
        }),
        () => summed.upstream.series({ status_class }),
      );
      own.observe(seconds);
      total.observe(seconds);
    },
    forgetConnector(connectorId) {
      const id = connectorId.toLowerCase();
      for (const { remove } of series.get(id)?.values() ?? []) remove();
      series.delete(id);
    },
  };
  recorders.set(registry, recorder);
  return recorder;
};

/**
 * The registry's metrics with the `connector` label summed away, for `/metrics` behind a token: a connector id
 * names a tenant's integration, so it is shown only on the operators' own listener (METRICS_PORT). The sums are
 * kept as requests are counted, so the scrape costs what the series without connectors cost.
 */
export const metricsWithoutConnectors = async (registry: Registry): Promise<string> => {
  const { summedRegistry } = familiesOf(registry);
  const parts: string[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    if (!CONNECTOR_METRICS.has(metric.name)) parts.push(await registry.getSingleMetricAsString(metric.name));
  }
  parts.push(await summedRegistry.metrics());
  return `${parts.join('\n\n')}\n`;
};
