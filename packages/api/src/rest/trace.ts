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
  return newTraceId();
};

// Random bytes drawn in blocks: one call to the system's generator per 256 trace ids instead of one per request.
const BLOCK = 16 * 256;
let block = Buffer.alloc(0);
let offset = BLOCK;

const newTraceId = (): string => {
  if (offset >= BLOCK) {
    block = randomBytes(BLOCK);
    offset = 0;
  }
  offset += 16;
  return block.toString('hex', offset - 16, offset);
};
