import { HEADER_NAME_TOKEN } from '@platform/core';

/** A header field of a request's head that holds a character no field value may (RFC 9110 §5.5), and which one. */
export type HeaderFault = { name: string; character: string };

/** A control character other than tab: CR and LF end the line itself, so any left inside it is one of these. */
const isForbidden = (code: number): boolean => (code < 0x20 && code !== 0x09) || code === 0x7f;

/**
 * The first header field of a rejected request's head (`rawPacket` of Node's parser error) whose value holds a NUL or
 * another control character: Node refuses such a request before any route sees it, and the answer can still name the
 * header (docs/errors.md). Undefined when the fault is elsewhere (the request line, the framing, a field name).
 */
export const findHeaderFault = (raw: Buffer | undefined): HeaderFault | undefined => {
  if (raw === undefined) return undefined;
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const lines = (end === -1 ? text : text.slice(0, end)).split('\r\n').slice(1);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    if (!HEADER_NAME_TOKEN.test(name)) continue;
    for (let i = colon + 1; i < line.length; i++) {
      const code = line.charCodeAt(i);
      if (isForbidden(code))
        return { name, character: `U+${code.toString(16).toUpperCase().padStart(4, '0')}` };
    }
  }
  return undefined;
};
