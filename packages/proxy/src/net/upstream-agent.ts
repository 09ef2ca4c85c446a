import { Agent } from 'undici';
import { createGuardedLookup } from './guarded-lookup.ts';

export type AgentOptions = {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  /** What the guarded host is, for error messages: "target" or "token endpoint". */
  what: string;
};

/** A keep-alive pool whose every new connection resolves through the address guard. */
export const createUpstreamAgent = ({ allowPrivateNetworks, timeoutMs, what }: AgentOptions): Agent =>
  new Agent({
    connect: {
      lookup: createGuardedLookup(allowPrivateNetworks, what),
      timeout: Math.min(timeoutMs, 10_000),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
    connections: 256,
  });
