import type { HostFetch } from '@platform/runtime';

/**
 * The proxy's own request headers, treated as the platform's proxy treats them (docs/connector-proxy.md), so that a
 * connector behaves here as it will there: `X-GraFx-Proxy-User-Agent` becomes the `User-Agent`, and no `x-grafx-*`
 * header reaches the target.
 */
const asProxied = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const sent: Record<string, string> = {};
  let userAgent: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-grafx-proxy-user-agent') userAgent = value.trim() || undefined;
    else if (!lower.startsWith('x-grafx-')) sent[lower] = value;
  }
  if (userAgent !== undefined) sent['user-agent'] = userAgent;
  return sent;
};

/**
 * The CLI's port out of the sandbox: the request as the connector made it, sent from this machine (no proxy, no
 * injected credentials, no CORS). Redirects are followed, failed or handed back as the fetch's `redirect` asks.
 */
export const relayFetch: HostFetch = async (request, signal) => {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: asProxied(request.headers),
      body:
        request.body === undefined || request.method === 'GET' || request.method === 'HEAD'
          ? undefined
          : (request.body as BodyInit),
      redirect: request.redirect ?? 'follow',
      signal,
    });
  } catch (error) {
    throw signal.aborted ? error : unreachable(request.url, error);
  }
  return {
    status: response.status,
    statusText: response.statusText,
    url: response.url || request.url,
    redirected: response.redirected,
    headers: Object.fromEntries(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
    // Sent from this machine as the connector made it: nothing was added.
    credentialsInjected: false,
  };
};

/**
 * A failed fetch in the words of the platform's proxy (`The target host could not be reached (ECONNREFUSED).`):
 * Node's own error says only `fetch failed`, its cause (the host and the system's code) one level down.
 */
const unreachable = (url: string, error: unknown): Error => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const reason = code ?? (typeof cause?.message === 'string' ? cause.message : 'network error');
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Not a URL: named as the connector wrote it.
  }
  return new Error(`The target ${host} could not be reached (${reason}).`);
};
