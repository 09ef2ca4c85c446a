/** `example.com` matches exactly; `*.example.com` matches any subdomain of example.com (not example.com itself). */
export const hostMatchesAllowedDomains = (hostname: string, allowedDomains: readonly string[]): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowedDomains.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
    return host === p;
  });
};
