/** The longest URL text a record keeps of a URL that does not parse. */
const UNPARSED_URL_MAX = 200;

/**
 * A URL that does not parse, as records and messages may show it: cut at its query or fragment, without anything
 * before an `@` of its authority (user information), at most 200 characters. Such a URL is never fetched, but it may
 * carry what a valid one would have (`?api_key=…`, `user:password@`).
 */
export const unparsedUrlForRecord = (url: string): string => {
  const beforeQuery = url.split(/[?#]/, 1)[0] ?? '';
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(beforeQuery)?.[0] ?? '';
  const rest = beforeQuery.slice(scheme.length);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf('@');
  const cleaned = scheme + (at === -1 ? rest : rest.slice(at + 1));
  return cleaned.length > UNPARSED_URL_MAX ? `${cleaned.slice(0, UNPARSED_URL_MAX)}…` : cleaned;
};

/** How a fetch's URL appears in records: query names kept, their values and any user info dropped. */
export const urlForRecord = (url: string): string => {
  if (url.slice(0, 5).toLowerCase() === 'data:') return url.slice(0, Math.max(5, url.search(/[;,]/)));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `(invalid URL) ${unparsedUrlForRecord(url)}`;
  }
  const names = [...parsed.searchParams.keys()];
  const query = names.length === 0 ? '' : `?${names.map((name) => `${encodeURIComponent(name)}=`).join('&')}`;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${query}`;
};
