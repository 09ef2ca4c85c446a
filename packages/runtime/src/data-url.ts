/** `data:` URLs are answered inside the runtime (no port, no proxy): `data:[<type>][;base64],<data>`. */
export type DataUrlBody = { contentType: string; body: Uint8Array };

export const isDataUrl = (url: string): boolean => url.slice(0, 5).toLowerCase() === 'data:';

export const decodeDataUrl = (url: string): DataUrlBody => {
  const comma = url.indexOf(',');
  if (comma < 0) throw new TypeError('invalid data: URL (no comma)');
  const meta = url.slice(5, comma).split(';');
  const base64 = meta.at(-1)?.toLowerCase() === 'base64';
  const contentType = (base64 ? meta.slice(0, -1) : meta).join(';').trim() || 'text/plain;charset=US-ASCII';
  const data = url.slice(comma + 1);
  if (base64) {
    const binary = atob(decodeURIComponent(data).replace(/\s+/g, ''));
    return { contentType, body: Uint8Array.from(binary, (char) => char.charCodeAt(0)) };
  }
  return { contentType, body: new TextEncoder().encode(decodeURIComponent(data)) };
};
