import { type HostFetch, RuntimeError } from '@platform/runtime';

/** Headers the proxy adds to every answer for its own sake; the connector sees the target's headers only. */
const proxyOwn = new Set(['content-security-policy', 'x-content-type-options']);

/**
 * The runtime's port in the console: each fetch of the connector becomes a call of the proxy route with the
 * signed-in user's platform token and browser usage, so the proxy checks allowedDomains and injects the user's
 * browser-usage credentials (authorization-code tokens included). The token never enters the sandbox.
 */
export const proxyFetch =
  (environment: string, connectorId: string, currentToken: () => string | undefined): HostFetch =>
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
    const refusal = await proxyRefusal(response);
    if (refusal) throw refusal;
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

/**
 * An answer the proxy made itself (`X-GraFx-Proxy-Error`), not the target's, as the run routes take it on the server:
 * the target unreachable or too slow, or a failed token endpoint (502, 504), fails the fetch with the proxy's words,
 * which the connector may catch; any other refusal (a host outside allowedDomains, a disabled connector) ends the call
 * with FETCH_REFUSED. A 401 asking the user to log in (`X-GRAFX-UNAUTHORIZED`) stays an answer: the connector sees
 * it, as in Studio.
 */
const proxyRefusal = async (response: Response): Promise<Error | undefined> => {
  if (!response.headers.has('x-grafx-proxy-error') || response.headers.has('x-grafx-unauthorized'))
    return undefined;
  const problem = (await response.json().catch(() => ({}))) as { detail?: unknown };
  const detail =
    typeof problem.detail === 'string' ? problem.detail : `the platform's proxy answered ${response.status}`;
  return response.status === 502 || response.status === 504
    ? new Error(detail)
    : new RuntimeError('FETCH_REFUSED', detail);
};
