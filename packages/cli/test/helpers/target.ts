import { SECRETS } from './fixtures.ts';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './recording-server.ts';

/**
 * Where the success-path tests send their commands. Today a recording server that checks the wire format;
 * the team's end-to-end suite passes a started platform server instead (base URL, environment, token and a
 * published connector), and the same tests then run against it with `requests` undefined.
 */
export type CliTarget = {
  baseUrl: string;
  environment: string;
  token: string;
  connectorId: string;
  /** Requests seen by the server, when it records them. */
  requests?: RecordedRequest[];
  close: () => Promise<void>;
};

export const ENVIRONMENT = 'acme-prod';
export const CONNECTOR_ID = '0d9c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

/** `.localhost` on purpose: the CLI must reach 127.0.0.1 for any name under it (RFC 6761). */
export const recordingTarget = async (server?: RecordingServer): Promise<CliTarget> => {
  const recorder = server ?? (await startRecordingServer());
  return {
    baseUrl: `http://${ENVIRONMENT}.localhost:${recorder.port}/grafx`,
    environment: ENVIRONMENT,
    token: SECRETS.token,
    connectorId: CONNECTOR_ID,
    requests: recorder.requests,
    close: recorder.close,
  };
};
