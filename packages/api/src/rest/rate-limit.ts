import { ServiceError } from '@platform/core';
import type { Request, RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import type { RequestLocals } from './context.ts';

type Bucket = { tokens: number; at: number };

/** Who a request counts against: a verified token's issuer and subject, else the client's address. */
export const callerKey = (req: Request, locals: RequestLocals, issuer: string): string => {
  const userId = locals.identity?.caller?.userId;
  return userId === undefined ? `a ${req.ip ?? 'unknown'}` : `u ${issuer} ${userId}`;
};

/**
 * Token bucket per caller (docs/configuration.md): `perSecond` sustained, bursts of twice that. A verified token
 * is counted by its issuer and subject, so spellings of one token and tokens of one user share a bucket; anything
 * else (no token, a token that fails verification) by the client's address. Each call of a tRPC batch counts.
 * Buckets live in an LRU so a flood of distinct keys cannot grow memory without bound. Runs after `identify`.
 */
export const rateLimit = (perSecond: number, issuer: string): RequestHandler => {
  if (perSecond <= 0) return (_req, _res, next) => next();
  const capacity = perSecond * 2;
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  return (req, res, next) => {
    const locals = res.locals as RequestLocals;
    const key = callerKey(req, locals, issuer);
    const cost = locals.calls ?? 1;
    const now = performance.now();
    const bucket = buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    buckets.set(key, bucket);
    if (bucket.tokens < cost) {
      const retryAfter = Math.max(1, Math.ceil((cost - bucket.tokens) / perSecond));
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
