import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** A subscription's environments whose name or technical name contains `name`. */
export const useEnvironments = (subscriptionId: string, name: string) =>
  useQuery({
    queryKey: ['subscriptions', subscriptionId, 'environments', name],
    queryFn: () =>
      api.environments.list.query({ subscriptionId, ...(name ? { environmentName: name } : {}) }),
    placeholderData: keepPreviousData,
  });

/** Each environment in full (its storage in six parts), one query per guid. */
export const useEnvironmentDetails = (guids: readonly string[]) =>
  useQueries({
    queries: guids.map((environmentId) => ({
      queryKey: ['environments', environmentId],
      queryFn: () => api.environments.get.query({ environmentId }),
    })),
  });
