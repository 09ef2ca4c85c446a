import type { RouterInputs } from '@platform/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

type SetInput = RouterInputs['connectorAuth']['set'];
export type AuthKind = SetInput['kind'];

const key = (environment: string, connectorId: string) => [
  'environments',
  environment,
  'connectors',
  connectorId,
  'auth',
];

/** What each usage of a connector is set to: type, name, updated; never a secret. */
export const useConnectorAuth = (environment: string, connectorId: string) =>
  useQuery({
    queryKey: key(environment, connectorId),
    queryFn: () => api.connectorAuth.list.query({ environment, connectorId }),
  });

/** Sets one usage's authorization: `body` holds `usage`, `name` and the type's fields, secrets included. */
export const useSetConnectorAuth = (environment: string, connectorId: string) => {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body }: { kind: AuthKind; body: Record<string, unknown> }) =>
      api.connectorAuth.set.mutate({ environment, connectorId, kind, body }),
    onSuccess: () => queries.invalidateQueries({ queryKey: key(environment, connectorId) }),
  });
};

/** Removes one usage's authorization. */
export const useDeleteConnectorAuth = (environment: string, connectorId: string) => {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (authUsage: 'browser' | 'server') =>
      api.connectorAuth.delete.mutate({ environment, connectorId, authUsage }),
    onSuccess: () => queries.invalidateQueries({ queryKey: key(environment, connectorId) }),
  });
};
