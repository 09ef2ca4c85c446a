import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressGuard } from './address-guard.ts';
import { BlockedAddressError } from './blocked-address-error.ts';

/**
 * A `connect.lookup` for undici that resolves once, vets every address, and hands exactly those addresses
 * to the socket: the address that was checked is the address that is connected (no DNS rebinding between
 * the check and the connect). Every new connection of a keep-alive pool goes through it again.
 */
export const createGuardedLookup =
  (guard: AddressGuard, what: string): LookupFunction =>
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
        if (addresses.some((a) => !guard.allows(a.address))) {
          callback(new BlockedAddressError(what, hostname), '', 0);
          return;
        }
        const first = addresses[0];
        if (!first) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
    );
  };
