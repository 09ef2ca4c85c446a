import type { HostFetch } from '@platform/runtime';

/**
 * The CLI's port out of the sandbox: the request as the connector made it, sent from this machine (no proxy, no
 * injected credentials, no CORS). Redirects are followed, as a browser's fetch does.
 */
export const relayFetch: HostFetch = async (request, signal) => {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body:
      request.body === undefined || request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : (request.body as BodyInit),
    redirect: 'follow',
    signal,
  });
  return {
    status: response.status,
    statusText: response.statusText,
    url: response.url || request.url,
    redirected: response.redirected,
    headers: Object.fromEntries(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
  };
};
