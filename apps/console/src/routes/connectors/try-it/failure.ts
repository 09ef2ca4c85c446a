import type { FetchRecord } from '@platform/runtime';

/** A call that failed, with what the panel shows beside Studio's words: the status, the message and the fetches. */
export class CallFailure extends Error {
  readonly code: string | undefined;
  /** The status of the connector's `ConnectorHttpError`, when it threw one. */
  readonly status: number | undefined;
  readonly fetches: FetchRecord[];

  /** `status` stands for a `ConnectorHttpError` the panel concludes itself (Studio's 404 for an asset not found). */
  constructor(cause: unknown, fetches: FetchRecord[], status?: number) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'CallFailure';
    const { code, connectorStatus } = (cause ?? {}) as { code?: unknown; connectorStatus?: unknown };
    this.code = typeof code === 'string' ? code : undefined;
    this.status =
      status ??
      (code === 'CONNECTOR_HTTP_ERROR' && typeof connectorStatus === 'number' ? connectorStatus : undefined);
    this.fetches = fetches;
  }
}

/**
 * The words Studio shows for a failed call: a `ConnectorHttpError` 401 is "Unauthorized", 404 is "Asset is missing"
 * (a data source: "Data not found"); any other failure "Unable to load" (a data source: "Invalid data source").
 */
export const studioWording = (failure: unknown, kind: 'media' | 'data'): string => {
  const status = failure instanceof CallFailure ? failure.status : undefined;
  if (status === 401) return 'Unauthorized';
  if (status === 404) return kind === 'data' ? 'Data not found' : 'Asset is missing';
  return kind === 'data' ? 'Invalid data source' : 'Unable to load';
};
