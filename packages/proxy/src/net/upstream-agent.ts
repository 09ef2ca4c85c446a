import { Agent } from 'undici';
import type { AddressGuard } from './address-guard.ts';
import { createGuardedLookup } from './guarded-lookup.ts';

export type AgentOptions = {
  guard: AddressGuard;
  timeoutMs: number;
  /** What the guarded host is, for error messages: "target" or "token endpoint". */
  what: string;
};

/** A keep-alive pool whose every new connection resolves through the address guard. */
export const createUpstreamAgent = ({ guard, timeoutMs, what }: AgentOptions): Agent =>
  new Agent({
    connect: {
      lookup: createGuardedLookup(guard, what),
      timeout: Math.min(timeoutMs, 10_000),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
    connections: 256,
  });
