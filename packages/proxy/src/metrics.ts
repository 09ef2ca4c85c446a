import { AggregatorRegistry, Counter, Histogram, type Registry } from 'prom-client';

export type ProxyMetrics = {
  tokenRequests: Counter<'connector' | 'grant' | 'outcome'>;
  tokenCache: Counter<'connector' | 'result'>;
  upstreamDuration: Histogram<'connector' | 'status_class'>;
};

/** Reuses metrics already on the registry, so two proxies (tests, several mounts) can share one. */
const getOrCreate = <T>(registry: Registry, name: string, create: () => T): T =>
  (registry.getSingleMetric(name) as T | undefined) ?? create();

export const createProxyMetrics = (registry: Registry): ProxyMetrics => ({
  tokenRequests: getOrCreate(
    registry,
    'connector_proxy_token_requests_total',
    () =>
      new Counter({
        name: 'connector_proxy_token_requests_total',
        help: 'Requests made to OAuth 2.0 token endpoints, by connector, grant and outcome',
        labelNames: ['connector', 'grant', 'outcome'] as const,
        registers: [registry],
      }),
  ),
  tokenCache: getOrCreate(
    registry,
    'connector_proxy_token_cache_total',
    () =>
      new Counter({
        name: 'connector_proxy_token_cache_total',
        help: 'Access token look-ups by connector: hit (memory), shared (store or in-flight), miss (token request)',
        labelNames: ['connector', 'result'] as const,
        registers: [registry],
      }),
  ),
  upstreamDuration: getOrCreate(
    registry,
    'connector_proxy_upstream_duration_seconds',
    () =>
      new Histogram({
        name: 'connector_proxy_upstream_duration_seconds',
        help: 'Time from sending a proxied request to receiving the target response headers, by connector',
        labelNames: ['connector', 'status_class'] as const,
        buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers: [registry],
      }),
  ),
});

/**
 * The registry's metrics with the `connector` label summed away, for `/metrics` behind a token: a connector id
 * names a tenant's integration, so it is shown only on the operators' own listener (METRICS_PORT).
 */
export const metricsWithoutConnectors = async (registry: Registry): Promise<string> => {
  const metrics = await registry.getMetricsAsJSON();
  for (const metric of metrics) {
    for (const value of metric.values) delete (value.labels as Record<string, unknown>).connector;
  }
  return AggregatorRegistry.aggregate([metrics]).metrics();
};
