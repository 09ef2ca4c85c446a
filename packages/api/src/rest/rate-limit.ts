import { createHash } from 'node:crypto';
import { ServiceError } from '@platform/core';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';

type Bucket = { tokens: number; at: number };

/**
 * Token bucket per bearer token (per client address without one): `perSecond` sustained, bursts of twice that
 * (docs/configuration.md). Buckets live in an LRU so a flood of distinct keys cannot grow memory without bound.
 */
export const rateLimit = (perSecond: number): RequestHandler => {
  if (perSecond <= 0) return (_req, _res, next) => next();
  const capacity = perSecond * 2;
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  // Hash the token so the key held in memory is not itself a credential. A client sends the same token request
  // after request, so the last one's key is remembered and the hash computed only when the token changes.
  let lastAuthorization: string | undefined;
  let lastKey = '';
  const tokenKey = (authorization: string) => {
    if (authorization !== lastAuthorization) {
      lastKey = `t:${createHash('sha256').update(authorization).digest('base64url')}`;
      lastAuthorization = authorization;
    }
    return lastKey;
  };
  return (req, _res, next) => {
    const authorization = req.headers.authorization;
    const key = authorization ? tokenKey(authorization) : `a:${req.socket.remoteAddress ?? 'unknown'}`;
    const now = performance.now();
    const bucket = buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) {
      buckets.set(key, bucket);
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
      next(
        new ServiceError(
          'RATE_LIMITED',
          `Too many requests: at most ${perSecond} per second. Retry after ${retryAfter} s.`,
          {
            headers: { 'Retry-After': String(retryAfter) },
          },
        ),
      );
      return;
    }
    bucket.tokens -= 1;
    buckets.set(key, bucket);
    next();
  };
};
