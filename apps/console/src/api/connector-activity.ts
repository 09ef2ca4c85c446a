import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** One fetch inside an invocation: never a secret, never query values. */
type ActivityFetch = {
  method: string;
  url: string;
  status: number | null;
  bytes: number;
  durationMs: number;
  credentialsInjected: boolean;
  error?: string;
};

/** One invocation of the connector, as the activity route answers it. */
type ActivityEntry = {
  at: string;
  method: string;
  usage: string;
  status: number;
  code: string | null;
  error: string | null;
  durationMs: number;
  fetches: ActivityFetch[];
};

/**
 * The connector's recorded invocations, newest first (docs/connector-runtime.md, "Activity"). The generated client
 * does not type this answer yet (its schema has no name in the OpenAPI document), so the documented shape is stated here.
 */
export const useConnectorActivity = (environment: string, connectorId: string) =>
  useQuery({
    queryKey: ['environments', environment, 'connectors', connectorId, 'activity'],
    queryFn: async () =>
      (await api.connectorRuntime.activity.query({ environment, connectorId, limit: '20' })) as {
        data: ActivityEntry[];
      },
  });
