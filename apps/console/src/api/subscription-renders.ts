import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

export type RenderQuery = {
  groupBy: 'year' | 'month';
  top: number;
  /** yyyy-MM-dd, both or neither. */
  startDate?: string | undefined;
  endDate?: string | undefined;
};

/** Render usage of a subscription per environment, the busiest `top` listed and the rest as Others. */
export const useSubscriptionRenders = (subscriptionId: string, query: RenderQuery) =>
  useQuery({
    queryKey: ['subscriptions', subscriptionId, 'renders', query],
    queryFn: () =>
      api.subscriptions.renders.query({
        subscriptionId,
        groupBy: query.groupBy,
        top: query.top,
        ...(query.startDate && query.endDate ? { startDate: query.startDate, endDate: query.endDate } : {}),
      }),
    placeholderData: keepPreviousData,
  });
