import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { problem } from '@platform/core';
import type { Registry } from 'prom-client';
import { type ConnectionGuardOptions, guardConnections } from './connection-guard.ts';
import { listenOn } from './listen-on.ts';

export type MetricsListener = { readonly port: number; close(): Promise<void> };

/**
 * METRICS_PORT (docs/configuration.md): Prometheus metrics without a token, connector ids included, on a listener of
 * their own bound to HOST, for a scraper inside the network. It serves `GET /metrics` and nothing else.
 */
export const listenMetrics = async (
  host: string,
  port: number,
  registry: Registry,
  /** The same connection hygiene as the main listener: idle timeout, per-client share, keep-alive. */
  connections: ConnectionGuardOptions & Parameters<typeof createServer>[0],
): Promise<MetricsListener> => {
  const { idleTimeoutMs, perClient, trusted, ...settings } = connections;
  const server = createServer(settings, async (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      const text = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const status = path === '/metrics' ? 405 : 404;
    const detail = status === 405 ? 'Use GET /metrics.' : 'This listener serves GET /metrics only.';
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(status === 405 ? { allow: 'GET, HEAD' } : {}),
    });
    res.end(JSON.stringify(problem({ status, detail, traceId: randomBytes(16).toString('hex') })));
  });
  guardConnections(server, { idleTimeoutMs, perClient, trusted });
  await listenOn(server, port, host, 'METRICS_PORT');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
