/** How a fetch's URL appears in records: query names kept, their values and any user info dropped. */
export const urlForRecord = (url: string): string => {
  if (url.slice(0, 5).toLowerCase() === 'data:') return url.slice(0, Math.max(5, url.search(/[;,]/)));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(invalid URL)';
  }
  const names = [...parsed.searchParams.keys()];
  const query = names.length === 0 ? '' : `?${names.map((name) => `${encodeURIComponent(name)}=`).join('&')}`;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${query}`;
};
