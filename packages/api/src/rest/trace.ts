import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** Continues a valid W3C `traceparent` (not all zeros, not version ff), else starts a new trace. */
export const traceIdOf = (traceparent: string | undefined): string => {
  const match = traceparent ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (
    match?.[1] &&
    !/^0+$/.test(match[1]) &&
    !/^0+$/.test(match[2] ?? '') &&
    !traceparent?.startsWith('ff')
  ) {
    return match[1];
  }
  return randomBytes(16).toString('hex');
};
