/** `data:` URLs are answered inside the runtime (no port, no proxy): `data:[<type>][;base64],<data>`. */
import { RuntimeError } from './errors.ts';

export type DataUrlBody = { contentType: string; body: Uint8Array };

export const isDataUrl = (url: string): boolean => url.slice(0, 5).toLowerCase() === 'data:';

const parts = (url: string) => {
  const comma = url.indexOf(',');
  if (comma < 0) throw new TypeError('invalid data: URL (no comma)');
  const meta = url.slice(5, comma).split(';');
  const base64 = meta.at(-1)?.toLowerCase() === 'base64';
  return { meta, base64, data: url.slice(comma + 1) };
};

/** At most the bytes the URL decodes to, told without decoding it (so a huge one is refused before it is held). */
export const dataUrlBytes = (url: string): number => {
  const { base64, data } = parts(url);
  return base64 ? Math.ceil((data.length * 3) / 4) : data.length;
};

/**
 * A content type goes out as a header value: one with a character a header value may not hold (a control character
 * such as CR or LF, or one beyond Latin-1, which HTTP/1.1 cannot carry) is refused, naming it.
 */
export const headerSafe = (contentType: string): string => {
  const refused = /[^\t\u0020-\u007e\u0080-\u00ff]/.exec(contentType);
  if (refused) {
    const code = refused[0].codePointAt(0) ?? 0;
    throw new RuntimeError(
      'CONNECTOR_ERROR',
      `the content type ${JSON.stringify(contentType.slice(0, 100))} is not a valid header value (U+${code.toString(16).toUpperCase().padStart(4, '0')}: ${code < 0x80 ? 'a control character such as CR or LF' : 'beyond Latin-1'})`,
    );
  }
  return contentType;
};

export const decodeDataUrl = (url: string): DataUrlBody => {
  const { meta, base64, data } = parts(url);
  const contentType = headerSafe(
    (base64 ? meta.slice(0, -1) : meta).join(';').trim() || 'text/plain;charset=US-ASCII',
  );
  if (base64) return { contentType, body: fromBase64(data.includes('%') ? decodeURIComponent(data) : data) };
  return { contentType, body: new TextEncoder().encode(decodeURIComponent(data)) };
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTETS = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SEXTETS[ALPHABET.charCodeAt(i)] = i;
SEXTETS[45] = 62; // '-' of base64url
SEXTETS[95] = 63; // '_' of base64url

/**
 * Base64 to bytes in one pass over the text (`atob` builds a binary string first, many times slower on big URLs);
 * white space and padding are skipped, any other character refused as `atob` would.
 */
const fromBase64 = (text: string): Uint8Array => {
  const out = new Uint8Array(Math.ceil((text.length * 3) / 4));
  let length = 0;
  let bits = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const sextet = code < 128 ? SEXTETS[code]! : -1;
    if (sextet < 0) {
      if (code === 61 || code === 32 || code === 9 || code === 10 || code === 12 || code === 13) continue;
      throw new TypeError('invalid data: URL (not base64)');
    }
    bits = (bits << 6) | sextet;
    count += 1;
    if (count === 4) {
      out[length++] = (bits >> 16) & 255;
      out[length++] = (bits >> 8) & 255;
      out[length++] = bits & 255;
      bits = 0;
      count = 0;
    }
  }
  if (count === 2) out[length++] = (bits >> 4) & 255;
  if (count === 3) {
    out[length++] = (bits >> 10) & 255;
    out[length++] = (bits >> 2) & 255;
  }
  return out.subarray(0, length);
};
