import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from './address-policy.ts';
import { BlockedAddressError } from './blocked-address-error.ts';

/** Decides which resolved addresses the proxy may connect to. */
export type AddressGuard = {
  readonly allowPrivateNetworks: boolean;
  allows(address: string): boolean;
  /** The development stand-in exemption (docs/demo-connectors.md): this URL may be reached whatever its address. */
  exempts(url: URL): boolean;
};

/** Where the platform's own stand-in API answers (apps/server, development only). */
export const STAND_IN_PATH = '/dev/stand-in/';

/**
 * `isPublic` is replaceable so tests on loopback can tell one loopback address from another. `standInOrigin`, given
 * only by a development server that serves the stand-in API, exempts exactly `{standInOrigin}/dev/stand-in/...`
 * from the private-network rule (and its token endpoint from the https rule): one origin, one path, nothing else.
 */
export const createAddressGuard = (
  allowPrivateNetworks: boolean,
  isPublic: (address: string) => boolean = isPublicAddress,
  standInOrigin?: string,
): AddressGuard => {
  const origin = standInOrigin === undefined ? undefined : standInOriginOf(standInOrigin);
  return {
    allowPrivateNetworks,
    allows: (address) => allowPrivateNetworks || isPublic(address),
    exempts: (url) => origin !== undefined && url.origin === origin && url.pathname.startsWith(STAND_IN_PATH),
  };
};

/** The stand-in must be an IP literal origin: an address that never reaches a resolver, so no name can be bent to it. */
const standInOriginOf = (value: string): string => {
  const url = new URL(value);
  if (isIP(bareHost(url)) === 0 || url.pathname !== '/' || url.search !== '' || url.username !== '') {
    throw new Error(`the stand-in origin must be http://<ip>:<port>, got ${url.origin}`);
  }
  return url.origin;
};

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** `localhost` and the names under it: loopback, known without asking a resolver (RFC 6761). */
export const isLocalhostName = (hostname: string): boolean => {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost');
};

/**
 * Hosts whose address is known without `lookup` are vetted here, before anything is fetched for them (a token
 * included): literal IPs, which node connects to directly, and `localhost` names, vetted as 127.0.0.1.
 */
export const assertLiteralAddressAllowed = (url: URL, guard: AddressGuard, what: string): void => {
  const host = bareHost(url);
  if (guard.exempts(url)) return;
  if (isIP(host) !== 0 && !guard.allows(host)) throw new BlockedAddressError(what, url.hostname);
  if (isLocalhostName(host) && !guard.allows('127.0.0.1')) throw new BlockedAddressError(what, url.hostname);
};

/**
 * Resolves and vets before anything is sent, for a clear 403 up front. The connection itself is still
 * vetted again by the agent's lookup, which is what actually pins the address.
 */
export const assertResolvedAddressAllowed = async (
  url: URL,
  guard: AddressGuard,
  what: string,
): Promise<void> => {
  assertLiteralAddressAllowed(url, guard, what);
  if (guard.allowPrivateNetworks || guard.exempts(url) || isIP(bareHost(url)) !== 0) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(bareHost(url), { all: true });
  } catch {
    return; // Unresolvable: the request itself will fail with the resolver's error.
  }
  if (addresses.some((a) => !guard.allows(a.address))) throw new BlockedAddressError(what, url.hostname);
};
