import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client.ts';
import type { RenderQuery } from './subscription-renders.ts';

/** One environment's renders per group, with `renderDetail`: the renders by kind. */
export const useEnvironmentRenders = (environmentId: string | undefined, query: Omit<RenderQuery, 'top'>) =>
  useQuery({
    queryKey: ['environments', environmentId, 'renders', query],
    enabled: environmentId !== undefined,
    queryFn: () =>
      api.environments.renders.query({
        environmentId: environmentId ?? '',
        groupBy: query.groupBy,
        ...(query.startDate && query.endDate ? { startDate: query.startDate, endDate: query.endDate } : {}),
      }),
    placeholderData: keepPreviousData,
  });
