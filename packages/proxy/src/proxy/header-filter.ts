import type { IncomingHttpHeaders } from 'node:http';

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
export type ForwardedFrom = { client: string | undefined; proto: 'http' | 'https' };

const noNames: ReadonlySet<string> = new Set();

/** Names listed in these headers, or a shared empty set when there are none (the usual case: no allocation). */
const namesIn = (...values: (string | string[] | undefined)[]): ReadonlySet<string> => {
  if (values.every((value) => value === undefined)) return noNames;
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
    const chain = listed(incoming['x-forwarded-for']);
    const client = forwardedFrom.client;
    out['x-forwarded-for'] = [...chain, ...(client ? [client] : [])].join(', ');
    const host = incoming.host;
    if (host !== undefined) out['x-forwarded-host'] = Array.isArray(host) ? host.join(',') : host;
    out['x-forwarded-proto'] = forwardedFrom.proto;
  }
  return out;
};

/**
 * What every response of the proxy carries, errors included: the target's answer is served from the platform's
 * origin, so it must not run there as a page (sandbox: no scripts, an opaque origin) nor be sniffed into one.
 */
export const proxiedResponseHeaders = {
  'content-security-policy': 'sandbox',
  'x-content-type-options': 'nosniff',
} as const;

/** Set by the platform's origin only: a target's cookies would land on the platform's own domain. */
const neverReturned = new Set([
  'set-cookie',
  'set-cookie2',
  'content-security-policy',
  'x-content-type-options',
]);

/** The target's response headers as the caller may see them. */
export const responseHeaders = (headers: IncomingHttpHeaders): OutgoingHeaders => {
  const dropped = namesIn(headers.connection);
  const out: OutgoingHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    // x-grafx-* from a target could forge the proxy's own signals (X-GRAFX-UNAUTHORIZED).
    if (hopByHop.has(name) || dropped.has(name) || neverReturned.has(name) || name.startsWith('x-grafx-'))
      continue;
    out[name] = value;
  }
  return Object.assign(out, proxiedResponseHeaders);
};
