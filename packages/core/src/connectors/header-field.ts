import { z } from 'zod';

/**
 * Header names the proxy sets or that change how the request is framed or routed (RFC 9110 §7.6.1 hop-by-hop
 * fields, `Host`, `Content-Length`, `Expect`, `Proxy-*`), and the platform's own `X-GraFx-*` (the proxy drops them
 * from every request it forwards): a connector's static key or shared header under one of these names could never be
 * sent as configured, would switch the virtual host behind `allowedDomains`, or would pass for the platform's own.
 */
const REFUSED_NAMES = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** An HTTP header name: an RFC 9110 token. */
export const HEADER_NAME_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A header name a connector may configure (docs/connector-auth.md): an RFC 9110 token, not one the proxy owns. */
export const HeaderName = z
  .string()
  .min(1)
  .max(256)
  .regex(HEADER_NAME_TOKEN, "an HTTP header name: letters, digits and !#$%&'*+.^_`|~-")
  .refine((name) => {
    const lower = name.toLowerCase();
    return !REFUSED_NAMES.has(lower) && !lower.startsWith('proxy-') && !lower.startsWith('x-grafx-');
  }, "a header the proxy sets itself or that changes how the request is routed (Host, Connection, Transfer-Encoding, Upgrade, Keep-Alive, Expect, TE, Trailer, Content-Length, Proxy-*) or one of the platform's own X-GraFx-* headers cannot be configured");

/**
 * A header value that can be sent as it is (RFC 9110 §5.5): visible ASCII, spaces, tabs and Latin-1 bytes, no
 * control character (a line break or NUL would split the request) and nothing outside Latin-1 (HTTP/1.1 cannot
 * carry it: the request would fail at every call).
 */
export const HeaderValue = z
  .string()
  .max(8192)
  .regex(
    /^[\t\x20-\x7e\x80-\xff]*$/,
    'an HTTP header value: no control characters (line breaks, NUL…) and only Latin-1 characters',
  );
