import { createTRPCClient, httpLink } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './contract.generated.ts';
import { authorizationHeader, type TokenSource } from './token.ts';

/** Inputs of every procedure: `RouterInputs['subscriptions']['renders']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Outputs of every procedure: `RouterOutputs['subscriptions']['get']`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** A typed tRPC client of the platform: `client.subscriptions.renders.query({ subscriptionId, groupBy: 'year' })`. */
export const createPlatformClient = (baseUrl: string, token?: TokenSource) =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({ url: `${baseUrl.replace(/\/$/, '')}/trpc`, headers: () => authorizationHeader(token) }),
    ],
  });

export type PlatformClient = ReturnType<typeof createPlatformClient>;
