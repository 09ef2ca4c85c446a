import { createTRPCClient, httpLink } from '@trpc/client';
import type { operations } from '../operations/table.ts';
import type { buildTrpcRouter } from './router.ts';

export type AppRouter = ReturnType<typeof buildTrpcRouter<typeof operations>>;

/** A typed tRPC client of the platform: `client.subscriptions.renders.query({ subscriptionId, groupBy: 'year' })`. */
export const createPlatformClient = (url: string, token?: string) =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${url.replace(/\/$/, '')}/trpc`,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
