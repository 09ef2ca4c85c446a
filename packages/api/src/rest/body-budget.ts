import { ServiceError } from '@platform/core';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import type { RequestLocals } from './context.ts';
import { callerKey } from './rate-limit.ts';

/** Decoded request-body bytes one caller may send at once (docs/errors.md, "Limits"). */
export const BODY_BUDGET_BURST = 32 * 1024 * 1024;
/** Decoded request-body bytes a second one caller may send, sustained. */
export const BODY_BUDGET_PER_SECOND = 2 * 1024 * 1024;

type Bucket = { bytes: number; at: number };

/**
 * A budget of decoded body bytes per caller (the rate limit's caller: issuer and subject, else the address), so
 * that 8 KB of gzip cannot buy one tenant a minute of every tenant's parsing: each decoded chunk is charged as it
 * arrives, and a body that overdraws the budget stops there with 429 and `Retry-After`. Operator-only operations
 * (the 256 MiB import) are not charged. On when the rate limit is.
 */
export const bodyBudget = (enabled: boolean, issuer: string): RequestHandler => {
  if (!enabled) return (_req, _res, next) => next();
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  return (_req, res, next) => {
    const locals = res.locals as RequestLocals;
    const key = callerKey(locals, issuer);
    locals.chargeBody = (bytes) => {
      const now = performance.now();
      const bucket = buckets.get(key) ?? { bytes: BODY_BUDGET_BURST, at: now };
      bucket.bytes = Math.min(
        BODY_BUDGET_BURST,
        bucket.bytes + ((now - bucket.at) / 1000) * BODY_BUDGET_PER_SECOND,
      );
      bucket.at = now;
      bucket.bytes -= bytes;
      buckets.set(key, bucket);
      if (bucket.bytes < 0) {
        const retryAfter = Math.max(1, Math.ceil(-bucket.bytes / BODY_BUDGET_PER_SECOND));
        throw new ServiceError(
          'RATE_LIMITED',
          `Too much request body data: at most ${BODY_BUDGET_PER_SECOND / 1024 / 1024} MiB a second once ${BODY_BUDGET_BURST / 1024 / 1024} MiB are spent, counted after decoding. Retry after ${retryAfter} s.`,
          { headers: { 'Retry-After': String(retryAfter) } },
        );
      }
    };
    next();
  };
};
