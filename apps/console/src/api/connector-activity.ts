import { useQuery } from '@tanstack/react-query';
import { currentToken } from '../auth/use-session.ts';

/** One fetch inside an invocation, as the activity route answers it (never a secret, never query values). */
export type ActivityFetch = {
  method: string;
  url: string;
  status?: number | null;
  bytes?: number;
  durationMs?: number;
  credentialsInjected?: boolean;
  error?: string | null;
};

/** One invocation of the connector, as the activity route answers it (docs/demo-connectors.md, "Try it"). */
export type ActivityEntry = {
  id?: string;
  at?: string;
  method: string;
  usage?: string;
  status?: number | string | null;
  durationMs?: number;
  error?: string | null;
  code?: string | null;
  fetches?: ActivityFetch[];
};

export class ActivityUnavailable extends Error {}

/**
 * `GET .../connectors/{connectorId}/activity?limit=`, the newest first. Read over REST with the user's token: the
 * route answers `{data: [...]}` or a bare array; a server without it (404 with no such endpoint) says so.
 */
export const useConnectorActivity = (environment: string, connectorId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['environments', environment, 'connectors', connectorId, 'activity'],
    enabled,
    retry: false,
    queryFn: async (): Promise<ActivityEntry[]> => {
      const token = currentToken();
      const response = await fetch(
        `/grafx/api/v1/environment/${encodeURIComponent(environment)}/connectors/${connectorId}/activity?limit=20`,
        { headers: token ? { authorization: `Bearer ${token}` } : {} },
      );
      const body = (await response.json().catch(() => undefined)) as unknown;
      if (!response.ok) {
        const detail = (body as { detail?: string } | undefined)?.detail ?? `HTTP ${response.status}`;
        throw new ActivityUnavailable(detail);
      }
      const list = Array.isArray(body) ? body : (body as { data?: unknown } | undefined)?.data;
      return Array.isArray(list) ? (list as ActivityEntry[]) : [];
    },
  });
