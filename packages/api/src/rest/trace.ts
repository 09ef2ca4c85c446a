import { randomBytes } from 'node:crypto';

/** W3C Trace Context: version, trace id, parent id, flags; lower-case hex only (an upper-case header is invalid). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-|$)/;

/**
 * Continues a valid W3C `traceparent`, else starts a new trace. Version 00 is exactly its 55 characters; a later
 * version is read by its first 55, which may be followed by `-` and more (Trace Context §4.3); version ff, an
 * all-zero trace or parent id, and upper-case hex are invalid.
 */
export const traceIdOf = (traceparent: string | undefined): string => {
  const header = traceparent?.trim();
  const match = header ? TRACEPARENT.exec(header) : null;
  const [, version, traceId, parentId, rest] = match ?? [];
  if (
    header !== undefined &&
    version !== undefined &&
    traceId !== undefined &&
    version !== 'ff' &&
    (version !== '00' || (rest === '' && header.length === 55)) &&
    !/^0+$/.test(traceId) &&
    !/^0+$/.test(parentId ?? '')
  ) {
    return traceId;
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
