import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HostFetch } from '@platform/runtime';
import { loopbackLookup } from '../http.ts';
import type { Target } from '../target.ts';

/** Response headers of the proxy itself, not of the target. */
const proxyOwn = new Set([
  'content-security-policy',
  'x-content-type-options',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * `debug --connectorId -e -b`: each fetch goes through the platform's connector proxy (browser usage) with the
 * CLI's token, so the connector runs with its real authorization and the proxy's checks. The token stays here:
 * the page only ever talks to the local debug server.
 */
export const platformRelay =
  (target: Target, connectorId: string, token: string): HostFetch =>
  (request, signal) =>
    new Promise((resolve, reject) => {
      const url = new URL(`${target.environmentApi}/connectors/${encodeURIComponent(connectorId)}/proxy`);
      const headers: Record<string, string> = {
        ...request.headers,
        authorization: `Bearer ${token}`,
        'x-grafx-proxy-external-url': request.url,
        'x-grafx-proxy-external-method': request.method,
        'x-grafx-proxy-external-authentication-source': 'browser',
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(url, { method: 'POST', headers, lookup: loopbackLookup, signal }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const plain: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined && !proxyOwn.has(name))
              plain[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            url: request.url,
            redirected: false,
            headers: plain,
            body: new Uint8Array(Buffer.concat(chunks)),
          });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(request.body === undefined ? undefined : Buffer.from(request.body));
    });
