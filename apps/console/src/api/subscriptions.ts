import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** The subscriptions the signed-in user can see. */
export const useSubscriptions = () =>
  useQuery({ queryKey: ['subscriptions'], queryFn: () => api.subscriptions.list.query({}) });

/** One subscription with its quotas, usage, licenses and environments. */
export const useSubscription = (subscriptionId: string) =>
  useQuery({
    queryKey: ['subscriptions', subscriptionId],
    queryFn: () => api.subscriptions.get.query({ subscriptionId }),
  });
