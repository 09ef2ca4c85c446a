import { STATUS_CODES } from 'node:http';
import { type AuthUsage, ForbiddenError, ServiceError } from '@platform/core';
import { type HostFetch, type HostFetchRequest, RuntimeError, unparsedUrlForRecord } from '@platform/runtime';
import { connectorResponseHeaders } from './header-filter.ts';
import type { ExchangeCaller, ProxyExchange } from './proxy-exchange.ts';
import type { RequestBody } from './request-body.ts';
import { ResponseTooLargeError } from './upstream-exchange.ts';

const refusedMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

const targetOf = (raw: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Named without its query or user information: the message reaches the connector, the activity and the caller.
    throw new TypeError(`'${unparsedUrlForRecord(raw)}' is not an absolute URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    throw new RuntimeError(
      'FETCH_REFUSED',
      `The proxy only calls absolute http(s) URLs without user information (${url.protocol}//${url.hostname}).`,
    );
  }
  url.hash = '';
  return url;
};

const bodyOf = (body: HostFetchRequest['body']): RequestBody => {
  if (body === undefined) return { kind: 'none' };
  const data =
    typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return { kind: 'buffered', data };
};

/**
 * The in-process adapter of the proxy exchange: a connector's `runtime.fetch` on the server, with the same checks,
 * header rules, credential injection and 401 retry as the HTTP proxy route. A refusal (allowedDomains, a private
 * address, a disabled connector, the role) becomes RuntimeError FETCH_REFUSED, naming the host and the rule; a
 * network failure stays an ordinary error the connector may handle.
 */
export const createInProcessFetch =
  (exchange: ProxyExchange) =>
  (caller: ExchangeCaller, usage: AuthUsage): HostFetch =>
  async (request, signal, sent) => {
    const url = targetOf(request.url);
    const method = request.method.toUpperCase();
    if (refusedMethods.has(method))
      throw new RuntimeError('FETCH_REFUSED', `The method ${method} cannot be proxied.`);
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    try {
      const response = await exchange(caller, {
        url,
        method,
        usage,
        headers,
        body: () => bodyOf(request.body),
        forwardedFrom: undefined,
        redirect: request.redirect,
        signal,
        onSent: sent,
      });
      const body = await response.body.collect(request.maxResponseBytes, signal);
      const responseHeaders = connectorResponseHeaders(response.body.headers);
      const unauthorized = response.headers['x-grafx-unauthorized'];
      if (typeof unauthorized === 'string') responseHeaders['x-grafx-unauthorized'] = unauthorized;
      return {
        status: response.status,
        // The target's own phrase, as Fetch gives it; HTTP/2 has none, and then the standard one stands in.
        statusText: response.body.statusText || (STATUS_CODES[response.status] ?? ''),
        // Where the answer came from, after the redirects the proxy followed (Fetch semantics).
        url: response.body.url.href,
        redirected: response.body.redirected,
        headers: responseHeaders,
        body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
        credentialsInjected: response.credentialsInjected,
      };
    } catch (error) {
      if (error instanceof ResponseTooLargeError) {
        throw new RuntimeError(
          'RESPONSE_TOO_LARGE',
          `A response body from ${url.host} exceeds ${error.maxBytes} bytes.`,
        );
      }
      if (error instanceof ForbiddenError)
        throw new RuntimeError('FETCH_REFUSED', error.message, { cause: error });
      if (
        error instanceof ServiceError &&
        error.code !== 'UPSTREAM_FAILED' &&
        error.code !== 'UPSTREAM_TIMEOUT'
      ) {
        // Named by its host like every refusal (a missing login, a token the provider refused): the connector may
        // fetch from several.
        throw new RuntimeError('FETCH_REFUSED', `The fetch to ${url.host} was refused: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
  };
