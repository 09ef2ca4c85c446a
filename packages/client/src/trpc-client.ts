import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './router.ts';

export type { AppRouter };
/** Inputs of every procedure: `RouterInputs['subscriptions']['renders']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Outputs of every procedure: `RouterOutputs['subscriptions']['get']`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A bearer token, or a function asked before each request (so a refreshed token is picked up). */
export type TokenSource = string | (() => string | undefined);

export const bearerHeader = (token: TokenSource | undefined): Record<string, string> => {
  const value = typeof token === 'function' ? token() : token;
  return value ? { authorization: `Bearer ${value}` } : {};
};

/** A typed tRPC client of the platform: `client.subscriptions.renders.query({ subscriptionId, groupBy: 'year' })`. */
export const createPlatformClient = (baseUrl: string, token?: TokenSource) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl.replace(/\/$/, '')}/trpc`, headers: () => bearerHeader(token) })],
  });

export type PlatformClient = ReturnType<typeof createPlatformClient>;
