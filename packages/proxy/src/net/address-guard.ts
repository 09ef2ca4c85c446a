import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from './address-policy.ts';
import { BlockedAddressError } from './blocked-address-error.ts';

/** Decides which resolved addresses the proxy may connect to. */
export type AddressGuard = {
  readonly allowPrivateNetworks: boolean;
  allows(address: string): boolean;
};

/** `isPublic` is replaceable so tests on loopback can tell one loopback address from another. */
export const createAddressGuard = (
  allowPrivateNetworks: boolean,
  isPublic: (address: string) => boolean = isPublicAddress,
): AddressGuard => ({
  allowPrivateNetworks,
  allows: (address) => allowPrivateNetworks || isPublic(address),
});

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Literal IP hosts never reach `lookup` (node connects to them directly), so they are vetted here. */
export const assertLiteralAddressAllowed = (url: URL, guard: AddressGuard, what: string): void => {
  const host = bareHost(url);
  if (isIP(host) !== 0 && !guard.allows(host)) throw new BlockedAddressError(what, url.hostname);
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
  if (guard.allowPrivateNetworks || isIP(bareHost(url)) !== 0) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(bareHost(url), { all: true });
  } catch {
    return; // Unresolvable: the request itself will fail with the resolver's error.
  }
  if (addresses.some((a) => !guard.allows(a.address))) throw new BlockedAddressError(what, url.hostname);
};
