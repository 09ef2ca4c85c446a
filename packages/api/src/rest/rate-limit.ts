import { ServiceError } from '@platform/core';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import type { RequestLocals } from './context.ts';

type Bucket = { tokens: number; at: number };

/**
 * Who a request counts against: a verified token's issuer and subject, else the client's address. Kept in the
 * request's locals: the rate limit and the body budget then look up one string, hashed once.
 */
export const callerKey = (locals: RequestLocals, issuer: string): string => {
  if (locals.callerKey !== undefined) return locals.callerKey;
  const userId = locals.identity?.caller?.userId;
  locals.callerKey =
    userId === undefined ? `a ${locals.clientAddress ?? 'unknown'}` : `u ${issuer} ${userId}`;
  return locals.callerKey;
};

/**
 * Token bucket per caller (docs/configuration.md): `perSecond` sustained, bursts of twice that. A verified token
 * is counted by its issuer and subject, so spellings of one token and tokens of one user share a bucket; anything
 * else (no token, a token that fails verification) by the client's address. Each call of a tRPC batch counts.
 * Buckets live in an LRU so a flood of distinct keys cannot grow memory without bound. Runs after `identify`.
 *
 * The limit is platform-wide: with N live replicas (replica-count.ts) each keeps buckets of `perSecond / N`, so a
 * caller whose requests the load balancer spreads over the replicas gets `perSecond` in all, with no database round
 * trip per request.
 */
export const rateLimit = (
  perSecond: number,
  issuer: string,
  replicas: () => number = () => 1,
): RequestHandler => {
  if (perSecond <= 0) return (_req, _res, next) => next();
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  return (_req, res, next) => {
    const locals = res.locals as RequestLocals;
    const key = callerKey(locals, issuer);
    const cost = locals.calls ?? 1;
    const rate = perSecond / replicas();
    const capacity = rate * 2;
    const now = performance.now();
    // `get` marks the bucket as recently used; only a new one is stored.
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: capacity, at: now };
      buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < cost) {
      const retryAfter = Math.max(1, Math.ceil((cost - bucket.tokens) / rate));
      next(
        new ServiceError(
          'RATE_LIMITED',
          `Too many requests: at most ${perSecond} per second. Retry after ${retryAfter} s.`,
          { headers: { 'Retry-After': String(retryAfter) } },
        ),
      );
      return;
    }
    bucket.tokens -= cost;
    next();
  };
};
