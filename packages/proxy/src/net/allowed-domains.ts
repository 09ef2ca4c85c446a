/** An `allowedDomains` entry: a host pattern and, optionally, the one port it names (`api.example.com:8443`). */
const entryOf = (entry: string): { pattern: string; port: number | undefined } => {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(entry.toLowerCase());
  return { pattern: match?.[1] ?? '', port: match?.[2] === undefined ? undefined : Number(match[2]) };
};

/** `example.com` matches exactly; `*.example.com` matches any subdomain of example.com (not example.com itself). */
const hostMatches = (host: string, pattern: string): boolean =>
  pattern.startsWith('*.')
    ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1
    : host === pattern;

const bare = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');

/** Whether the host is one `allowedDomains` names, whatever port an entry carries. */
export const hostMatchesAllowedDomains = (hostname: string, allowedDomains: readonly string[]): boolean => {
  const host = bare(hostname);
  return allowedDomains.some((entry) => hostMatches(host, entryOf(entry).pattern));
};

/** The port a URL connects to: its own, or its scheme's default. */
export const portOf = (url: URL): number =>
  url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);

/**
 * Whether an entry matching the URL's host names its port: an entry with `:port` names that port, one without
 * names the scheme's default port only (docs/connector-proxy.md, "Where credentials go").
 */
export const portMatchesAllowedDomains = (url: URL, allowedDomains: readonly string[]): boolean => {
  const host = bare(url.hostname);
  const port = portOf(url);
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  return allowedDomains.some((entry) => {
    const named = entryOf(entry);
    return hostMatches(host, named.pattern) && (named.port ?? defaultPort) === port;
  });
};
