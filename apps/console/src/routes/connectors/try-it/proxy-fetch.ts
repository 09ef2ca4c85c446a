import type { HostFetch } from '@platform/runtime';
import { currentToken } from '../../../auth/use-session.ts';

/** Headers the proxy adds to every answer for its own sake; the connector sees the target's headers only. */
const proxyOwn = new Set(['content-security-policy', 'x-content-type-options']);

/**
 * The runtime's port in the console: each fetch of the connector becomes a call of the proxy route with the
 * signed-in user's platform token and browser usage, so the proxy checks allowedDomains and injects the user's
 * browser-usage credentials (authorization-code tokens included). The token never enters the sandbox.
 */
export const proxyFetch =
  (environment: string, connectorId: string): HostFetch =>
  async (request, signal) => {
    const token = currentToken();
    const method = request.method.toUpperCase();
    const bodyless = method === 'GET' || method === 'HEAD';
    const response = await fetch(
      `/grafx/api/v1/environment/${encodeURIComponent(environment)}/connectors/${connectorId}/proxy`,
      {
        method: bodyless ? 'GET' : 'POST',
        headers: {
          ...request.headers,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'x-grafx-proxy-external-url': request.url,
          'x-grafx-proxy-external-method': method,
          'x-grafx-proxy-external-authentication-source': 'browser',
        },
        body: bodyless || request.body === undefined ? undefined : (request.body as BodyInit),
        // Every target shares the proxy's one URL (the target is a header): a cached answer would be another's.
        cache: 'no-store',
        signal,
      },
    );
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!proxyOwn.has(name)) headers[name] = value;
    });
    return {
      status: response.status,
      statusText: response.statusText,
      url: request.url,
      redirected: false,
      headers,
      body: new Uint8Array(await response.arrayBuffer()),
    };
  };
