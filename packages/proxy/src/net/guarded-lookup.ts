import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy.ts';
import { BlockedAddressError } from './blocked-address-error.ts';

/**
 * A `connect.lookup` for undici that resolves once, vets every address, and hands exactly those addresses
 * to the socket: the address that was checked is the address that is connected (no DNS rebinding between
 * the check and the connect). Every new connection of a keep-alive pool goes through it again.
 */
export const createGuardedLookup =
  (allowPrivateNetworks: boolean, what: string): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(
      hostname,
      { all: true, family: options.family ?? 0, hints: options.hints ?? 0 },
      (error, found) => {
        if (error) {
          callback(error, '', 0);
          return;
        }
        const addresses: LookupAddress[] = found;
        const blocked = !allowPrivateNetworks && addresses.some((a) => !isPublicAddress(a.address));
        if (blocked || addresses.length === 0) {
          callback(
            blocked
              ? new BlockedAddressError(what, hostname)
              : Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
          return;
        }
        if (options.all) {
          callback(null, addresses);
          return;
        }
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      },
    );
  };

/** Literal IP hosts never reach `lookup` (node connects to them directly), so they are vetted here. */
export const assertLiteralAddressAllowed = (url: URL, allowPrivateNetworks: boolean, what: string): void => {
  if (allowPrivateNetworks) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isPublicAddress(host)) throw new BlockedAddressError(what, url.hostname);
};
