import { uuid, z } from 'zod';
import { connectorActivity } from '../services/connector-runtime/activity.ts';
import {
  connectorCapabilities,
  dataModel,
  dataPage,
  mediaDetail,
  mediaDownload,
  mediaQuery,
} from '../services/connector-runtime/run-methods.ts';
import {
  ActivityList,
  ActivityQuery,
  Capabilities,
  ConnectorAnswer,
  DataPageBody,
  DownloadAnswer,
  MediaDetailBody,
  MediaDownloadBody,
  MediaQueryBody,
  RunBody,
} from '../services/connector-runtime/schemas.ts';
import { defineOperation } from './operation.ts';

const BASE = '/grafx/api/v1/environment/{environment}/connectors/{connectorId}';

const connectorParams = z.object({
  environment: z
    .string()
    .min(1)
    .max(253)
    .describe("The environment's technical name (case-insensitive) or its guid."),
  connectorId: uuid(),
});

/**
 * Every run: platform:read and visibility of the environment; `usage: server` (the default) also needs the token
 * role connector:server. A run writes only its activity entry, which no cached read holds.
 */
const run = {
  access: 'platform:read',
  malformedParams: 404,
  tag: 'Connector runtime',
  readsOnly: true,
} as const;
const RUN_RULES =
  "Caller needs platform:read and visibility of the environment; `usage: server` (default) needs the token role connector:server, `browser` uses the calling user's browser-usage credentials. Errors carry a stable `code`: 400 METHOD_MISSING, 409 CONNECTOR_DISABLED, 422 SCRIPT_INVALID or NO_DEFAULT_CLASS, 502 CONNECTOR_HTTP_ERROR (with `connectorStatus`), FETCH_REFUSED, MEMORY_LIMIT, STACK_LIMIT, FETCH_LIMIT, RESPONSE_TOO_LARGE (with `limit`) or CONNECTOR_ERROR, 503 when the runtime is busy (`Retry-After`), 504 TIME_LIMIT.";
const runErrors = [400, 403, 404, 409, 422, 502, 503, 504] as const;

export const connectorRuntimeOperations = [
  defineOperation({
    id: 'connectorRuntime.capabilities',
    method: 'GET',
    path: `${BASE}/capabilities`,
    summary: "A connector's capabilities and configuration options, from its own script",
    description: `Runs getCapabilities() and getConfigurationOptions() (server usage). Needs platform:read only, not connector:server: it runs nothing that fetches, and a fetch it tries without that role is refused (502 FETCH_REFUSED). ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    response: Capabilities,
    status: 200,
    errors: runErrors,
    service: connectorCapabilities,
  }),
  defineOperation({
    id: 'connectorRuntime.mediaQuery',
    method: 'POST',
    path: `${BASE}/media/query`,
    summary: 'Run query(query, context) of a media connector: a MediaPage',
    description: `A media connector's query. ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: MediaQueryBody,
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: mediaQuery,
  }),
  defineOperation({
    id: 'connectorRuntime.mediaDetail',
    method: 'POST',
    path: `${BASE}/media/detail`,
    summary: 'Run detail(id, context) of a media connector: a MediaDetail',
    description: `A media connector's detail. ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: MediaDetailBody,
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: mediaDetail,
  }),
  defineOperation({
    id: 'connectorRuntime.mediaDownload',
    method: 'POST',
    path: `${BASE}/media/download`,
    summary: 'Run download(id, previewType, intent, context) of a media connector: the bytes',
    description: `The bytes behind the ArrayBufferPointer download returns, with the upstream's content type (tRPC: \`{contentType, base64}\`). ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: MediaDownloadBody,
    produces: 'application/octet-stream',
    response: DownloadAnswer,
    status: 200,
    errors: runErrors,
    service: mediaDownload,
  }),
  defineOperation({
    id: 'connectorRuntime.dataPage',
    method: 'POST',
    path: `${BASE}/data/page`,
    summary: 'Run getPage(config, context) of a data connector: a DataPage',
    description: `A data connector's page. ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: DataPageBody,
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: dataPage,
  }),
  defineOperation({
    id: 'connectorRuntime.dataModel',
    method: 'POST',
    path: `${BASE}/data/model`,
    summary: 'Run getModel(context) of a data connector: a DataModel',
    description: `A data connector's model. ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: RunBody,
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: dataModel,
  }),
  defineOperation({
    id: 'connectorRuntime.activity',
    method: 'GET',
    path: `${BASE}/activity`,
    summary: "A connector's recent invocations and their fetches, newest first",
    description:
      "Every invocation (method, usage, status, duration, error code) and each fetch inside it (method, URL without query values, status, bytes, duration, whether credentials were injected; a failed token fetch with the provider's error). Kept per connector: the newest 1,000, none older than 7 days. Never a secret. Caller needs platform:read and visibility of the environment.",
    access: 'platform:read',
    malformedParams: 404,
    tag: 'Connector runtime',
    params: connectorParams,
    query: ActivityQuery,
    response: ActivityList,
    status: 200,
    errors: [400, 404],
    service: connectorActivity,
  }),
];
