import { BlockList, isIP } from 'node:net';

/**
 * Which resolved addresses count as "public". The proxy refuses everything else unless
 * `PROXY_ALLOW_PRIVATE_NETWORKS`: a connector script must not reach the platform's own network (SSRF).
 */
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** Expands an IPv6 text form into its 8 groups (handles `::` and a dotted IPv4 tail). */
const ipv6Groups = (address: string): number[] => {
  let text = address.split('%')[0] ?? address;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
};

const v4FromGroups = (high: number, low: number): string =>
  `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4), if any: that is where packets really go. */
const embeddedIpv4 = (groups: number[]): string | undefined => {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4FromGroups(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b) return v4FromGroups(g6, g7); // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
  if (g0 === 0x2002) return v4FromGroups(g1, g2); // 6to4
  return undefined;
};

const classify = (address: string): boolean => {
  const family = isIP(address);
  if (family === 4) return !blockedV4.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return false;
  const v4 = embeddedIpv4(groups);
  if (v4 !== undefined) return classify(v4);
  // Only global unicast (2000::/3) is routable on the Internet.
  if (((groups[0] ?? 0) & 0xe000) !== 0x2000) return false;
  return !blockedV6.check(address.split('%')[0] ?? address, 'ipv6');
};

/** Answers remembered per address text: a BlockList check builds a SocketAddress each time, and targets repeat. */
const known = new Map<string, boolean>();
const KNOWN_LIMIT = 4096;

export const isPublicAddress = (address: string): boolean => {
  let answer = known.get(address);
  if (answer === undefined) {
    answer = classify(address);
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(address, answer);
  }
  return answer;
};
