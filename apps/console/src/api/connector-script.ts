import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** The connector's published module and options, which the Try-it panel runs in this browser. */
export const useConnectorScript = (environment: string, connectorId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['environments', environment, 'connectors', connectorId, 'script'],
    queryFn: () => api.connectors.script.query({ environment, connectorId }),
    enabled,
    staleTime: 0,
  });
