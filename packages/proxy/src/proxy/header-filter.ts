import type { IncomingHttpHeaders } from 'node:http';
import { proxiedResponseHeaders } from '@platform/core';

/** RFC 9110 §7.6.1 connection-specific headers, plus what this proxy sets itself. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Never forwarded from the caller: its platform token (`authorization`), the platform's cookies (a browser
 * sends them to the platform origin; they are not the connector's to pass on), the platform's own
 * `x-forwarded-*` chain (the client's address only leaves with `proxyOptions.forwardedHeaders`), and
 * headers node or undici recompute.
 */
const neverForwarded = new Set([
  'authorization',
  'cookie',
  'host',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'content-length',
]);

const listed = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');

export type OutgoingHeaders = Record<string, string | string[]>;

/** Where a request came from, for the `x-forwarded-*` headers a connector with `forwardedHeaders` sends on. */
export type ForwardedFrom = {
  /**
   * The addresses the request came through, oldest first, ending with the peer that sent it: what the caller's own
   * `X-Forwarded-For` says is kept only as far as trusted load balancers vouch for it (TRUSTED_PROXIES).
   */
  chain(): readonly string[];
  proto: 'http' | 'https';
};

const noNames: ReadonlySet<string> = new Set();

/**
 * `Connection` values that name nothing to drop beyond the hop-by-hop headers: what nearly every client and target
 * sends, answered without parsing.
 */
const plainConnection = new Set(['keep-alive', 'close', 'Keep-Alive', 'Close']);

const namesNothing = (value: string | string[] | undefined): boolean =>
  value === undefined || (typeof value === 'string' && plainConnection.has(value));

/** Names listed in these headers, or a shared empty set when there are none (the usual case: no allocation). */
const namesIn = (...values: (string | string[] | undefined)[]): ReadonlySet<string> => {
  if (values.every(namesNothing)) return noNames;
  return new Set(values.flatMap(listed));
};

/**
 * The caller's headers as the target may see them (shared headers and credentials are added per hop, later).
 * `forwardedFrom` is given only when the connector forwards the client's address (`forwardedHeaders`).
 */
export const filterOutgoingHeaders = (
  incoming: Readonly<Record<string, string | string[] | undefined>>,
  forwardedFrom: ForwardedFrom | undefined,
): OutgoingHeaders => {
  const dropped = namesIn(incoming.connection, incoming['x-grafx-proxy-exclude-headers']);
  const out: OutgoingHeaders = {};
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined) continue;
    if (hopByHop.has(name) || neverForwarded.has(name) || dropped.has(name) || name.startsWith('x-grafx-'))
      continue;
    out[name] = value;
  }
  if (forwardedFrom) {
    const chain = forwardedFrom.chain();
    if (chain.length > 0) out['x-forwarded-for'] = chain.join(', ');
    const host = incoming.host;
    if (host !== undefined) out['x-forwarded-host'] = Array.isArray(host) ? host.join(',') : host;
    out['x-forwarded-proto'] = forwardedFrom.proto;
  }
  return out;
};

/**
 * The target's response headers a caller may see (docs/connector-proxy.md, "Responses"): what describes the body,
 * caching, ranges, redirects, retry and authentication challenges, request ids and common paging and rate-limit
 * counters. Anything else is dropped: the answer is served from the platform's origin, where headers such as
 * `Clear-Site-Data`, `Strict-Transport-Security`, `Alt-Svc`, CORS, `Refresh`, `Link` or `Set-Cookie` would act on
 * the platform itself.
 */
const forwardedResponseHeaders = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-disposition',
  'content-language',
  'content-range',
  'accept-ranges',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'vary',
  'age',
  'date',
  'location',
  'retry-after',
  'www-authenticate',
  'x-request-id',
  'x-total-count',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

/**
 * The target's response headers as a connector's `runtime.fetch` sees them: all of them but the hop-by-hop ones, each
 * as one value. The allow-list of `responseHeaders` guards pages served from the platform's origin in a browser;
 * a connector is no such page, and it reads what its API answers (`Link` and cursor headers for paging, its own
 * `x-*` counters).
 */
export const connectorResponseHeaders = (headers: IncomingHttpHeaders): Record<string, string> => {
  const dropped = namesIn(headers.connection);
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || hopByHop.has(name) || dropped.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
};

/** The target's response headers as the caller may see them, and the proxy's own. */
export const responseHeaders = (headers: IncomingHttpHeaders): OutgoingHeaders => {
  const dropped = namesIn(headers.connection);
  const out: OutgoingHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !forwardedResponseHeaders.has(name) || dropped.has(name)) continue;
    out[name] = value;
  }
  return Object.assign(out, proxiedResponseHeaders);
};

/**
 * The request headers that choose the proxy route's answer besides its URL: the target, whose credentials (usage
 * and the caller's token) and whether they are left out. A browser caching a proxied answer the target allows to be
 * cached must key it on them too, or one target's answer would be served for another's.
 */
const SELECTING_HEADERS = [
  'Authorization',
  'X-GraFx-Proxy-External-Url',
  'X-GraFx-Proxy-External-Authentication-Source',
  'X-GraFx-Proxy-Exclude-Headers',
];

const SELECTING_VARY = SELECTING_HEADERS.join(', ');

/**
 * `Vary` of a proxied answer over HTTP: the target's own names and the proxy's selecting headers (`*` stays). Sets it
 * on `headers`, the caller's own copy (`responseHeaders`' answer).
 */
export const varyOnProxyHeaders = (headers: OutgoingHeaders): OutgoingHeaders => {
  if (headers.vary === undefined) {
    headers.vary = SELECTING_VARY;
    return headers;
  }
  const upstream = listed(headers.vary);
  if (upstream.includes('*')) return headers;
  const known = new Set(upstream);
  const vary = [...upstream, ...SELECTING_HEADERS.filter((name) => !known.has(name.toLowerCase()))];
  headers.vary = vary.join(', ');
  return headers;
};
