import { useQueries, useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** The subscription's users (owners and admins only: others get 403, which also hides the Users page). */
export const useUsers = (subscriptionId: string) =>
  useQuery({
    queryKey: ['subscriptions', subscriptionId, 'users'],
    queryFn: () => api.users.list.query({ subscriptionId }),
  });

/** Each user's roles per subscription and environment. */
export const useUserRoles = (subscriptionId: string, userIds: readonly string[]) =>
  useQueries({
    queries: userIds.map((userId) => ({
      queryKey: ['subscriptions', subscriptionId, 'users', userId],
      queryFn: () => api.users.get.query({ subscriptionId, userId }),
    })),
  });
