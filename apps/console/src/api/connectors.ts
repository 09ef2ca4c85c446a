import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

const key = (environment: string) => ['environments', environment, 'connectors'];

/** The environment's connectors (by technical name or guid). */
export const useConnectors = (environment: string) =>
  useQuery({ queryKey: key(environment), queryFn: () => api.connectors.list.query({ environment }) });

/** Enables or disables one connector. */
export const useSetConnectorEnabled = (environment: string) => {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ connectorId, enabled }: { connectorId: string; enabled: boolean }) =>
      api.connectors.patch.mutate({ environment, connectorId, body: { enabled } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: key(environment) }),
  });
};
