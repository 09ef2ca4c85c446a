import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** The filters of the Audit page; empty strings are "any". */
export type AuditFilters = {
  subscriptionId: string;
  environment: string;
  actor: string;
  action: string;
  /** ISO date-times, or '' */
  from: string;
  to: string;
};

const PAGE = 50;

/** The subscription's audit trail under `filters`, newest first, a page of 50 at a time (owners and admins). */
export const useAuditTrail = (filters: AuditFilters) =>
  useInfiniteQuery({
    queryKey: ['audit', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.audit.list.query({
        subscriptionId: filters.subscriptionId,
        limit: String(PAGE),
        ...(filters.environment ? { environment: filters.environment } : {}),
        ...(filters.actor ? { actor: filters.actor } : {}),
        ...(filters.action ? { action: filters.action } : {}),
        ...(filters.from ? { from: filters.from } : {}),
        ...(filters.to ? { to: filters.to } : {}),
        ...(pageParam ? { nextPageToken: pageParam } : {}),
      }),
    getNextPageParam: (last) =>
      last.links.nextPage
        ? (new URL(last.links.nextPage).searchParams.get('nextPageToken') ?? undefined)
        : undefined,
  });
