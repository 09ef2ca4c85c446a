import { ForbiddenError } from '@platform/core';

/** A host resolved (or was written as) a non-public address while private networks are not allowed. */
export class BlockedAddressError extends ForbiddenError {
  constructor(what: string, host: string) {
    super(
      `The ${what} host ${host} resolves to a private, loopback or otherwise non-public address; the proxy only reaches public addresses.`,
    );
    this.name = 'BlockedAddressError';
  }
}

/** Undici and node:net hand lookup errors back as-is or as a cause: look down the chain. */
export const findBlockedAddressError = (error: unknown): BlockedAddressError | undefined => {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof BlockedAddressError) return current;
    current = current.cause;
  }
  return undefined;
};
