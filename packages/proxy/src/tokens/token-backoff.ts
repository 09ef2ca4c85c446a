import { UpstreamError } from '@platform/core';

/**
 * How long a failed token request is remembered, and how long after a renewal (an upstream 401) the next may
 * run: a few seconds, jittered by ±25 % so that replicas and keys that failed together do not retry together. A
 * failing or throttling provider thus gets about one request per key every few seconds, whatever the traffic.
 */
export const tokenBackoffMs = (): number => 4_000 * (0.75 + Math.random() * 0.5);

/** `TOKEN_TIMEOUT_SECONDS` ran out: 504 with the stable code `UPSTREAM_TIMEOUT`. */
export const tokenTimeoutError = (host: string, timeoutMs: number): UpstreamError =>
  new UpstreamError(
    `The token endpoint ${host} did not answer within ${timeoutMs / 1000} s (TOKEN_TIMEOUT_SECONDS).`,
    'UPSTREAM_TIMEOUT',
  );

/** Settles as `work` does, or rejects with `onTimeout()` after `ms`, whichever comes first. */
export const withDeadline = async <T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
};
