import type { IncomingMessage } from 'node:http';
import { type AuthUsage, ValidationError } from '@platform/core';

/** `url` is shared with other requests to the same target: read it, never change it. */
export type ProxyTarget = { url: Readonly<URL>; method: string; usage: AuthUsage };

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

const methodPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Tunnels and loop-back diagnostics make no sense through a credential-injecting proxy. */
const refusedMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

const parseTargetUrl = (raw: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError('The x-grafx-proxy-external-url header must be an absolute http(s) URL.', {
      'x-grafx-proxy-external-url': ['an absolute http(s) URL'],
    });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    throw new ValidationError(
      'The x-grafx-proxy-external-url header must be an absolute http(s) URL without credentials.',
      { 'x-grafx-proxy-external-url': ['an absolute http(s) URL without user information'] },
    );
  }
  // Setting it re-serialises the URL: only when there is one.
  if (url.hash !== '') url.hash = '';
  return url;
};

/**
 * Parsed target URLs by their header text. A connector calls the same few URLs again and again, and parsing one was
 * a fiftieth of a proxied call's CPU. The URL objects are shared between requests: nothing on the proxy's path
 * changes a target URL (a redirect makes a new one). Emptied when full, so a caller sending distinct URLs only
 * costs what parsing costs.
 */
const parsedTargets = new Map<string, URL>();
const PARSED_TARGETS_MAX = 1024;

const targetUrl = (raw: string): URL => {
  const known = parsedTargets.get(raw);
  if (known) return known;
  const url = parseTargetUrl(raw);
  if (parsedTargets.size >= PARSED_TARGETS_MAX) parsedTargets.clear();
  parsedTargets.set(raw, url);
  return url;
};

/** docs/environment-api.md: the `x-grafx-proxy-external-*` headers name the target, its method and the usage. */
export const readProxyTarget = (req: IncomingMessage): ProxyTarget => {
  const rawUrl = single(req.headers['x-grafx-proxy-external-url'])?.trim();
  if (!rawUrl) {
    throw new ValidationError(
      'The x-grafx-proxy-external-url header is required: the absolute URL to call.',
      {
        'x-grafx-proxy-external-url': ['required'],
      },
    );
  }
  const url = targetUrl(rawUrl);

  const rawMethod = single(req.headers['x-grafx-proxy-external-method'])?.trim();
  const method = (rawMethod || req.method || 'GET').toUpperCase();
  if (!methodPattern.test(method) || refusedMethods.has(method)) {
    throw new ValidationError(`The method ${method.slice(0, 32)} cannot be proxied.`, {
      'x-grafx-proxy-external-method': ['an HTTP method other than CONNECT and TRACE'],
    });
  }

  const rawUsage = single(req.headers['x-grafx-proxy-external-authentication-source'])?.trim().toLowerCase();
  const usage = rawUsage || 'browser';
  if (usage !== 'browser' && usage !== 'server') {
    throw new ValidationError(
      'The x-grafx-proxy-external-authentication-source header must be browser or server.',
      {
        'x-grafx-proxy-external-authentication-source': ['browser or server'],
      },
    );
  }
  return { url, method, usage };
};
