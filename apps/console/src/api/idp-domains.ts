import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

const key = (subscriptionId: string) => ['subscriptions', subscriptionId, 'idp-domains'];

/** The identity-provider domains the subscription allows. */
export const useIdpDomains = (subscriptionId: string) =>
  useQuery({ queryKey: key(subscriptionId), queryFn: () => api.idpDomains.get.query({ subscriptionId }) });

/** Replaces the whole list; the server checks every entry and names each bad one (`body[i]`). */
export const useSetIdpDomains = (subscriptionId: string) => {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (domains: string[]) => api.idpDomains.set.mutate({ subscriptionId, body: domains }),
    onSuccess: () => queries.invalidateQueries({ queryKey: key(subscriptionId) }),
  });
};
