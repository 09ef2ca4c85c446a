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

// Random bytes drawn in blocks, and written as hex once per block: one call to the system's generator and one
// conversion per 256 trace ids instead of one of each per request. A trace id is then a slice of the block's text.
const IDS_PER_BLOCK = 256;
const HEX_DIGITS = 32;
let block = '';
let offset = 0;

const newTraceId = (): string => {
  if (offset >= block.length) {
    block = randomBytes((IDS_PER_BLOCK * HEX_DIGITS) / 2).toString('hex');
    offset = 0;
  }
  offset += HEX_DIGITS;
  return block.slice(offset - HEX_DIGITS, offset);
};
