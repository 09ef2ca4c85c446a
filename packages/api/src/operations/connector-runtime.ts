import { uuid, z } from 'zod';
import { connectorActivity } from '../services/connector-runtime/activity.ts';
import {
  connectorCapabilities,
  dataItem,
  dataModel,
  dataPage,
  mediaDetail,
  mediaDownload,
  mediaQuery,
  mediaUpload,
} from '../services/connector-runtime/run-methods.ts';
import {
  ActivityList,
  Capabilities,
  ConnectorAnswer,
  DataItemBody,
  DataPageBody,
  DownloadAnswer,
  MediaDetailBody,
  MediaDownloadBody,
  MediaQueryBody,
  MediaUploadBody,
  RunBody,
  UPLOAD_FILE_MAX_BYTES,
  UPLOAD_MAX_FILES,
  UPLOAD_TOTAL_MAX_BYTES,
} from '../services/connector-runtime/schemas.ts';
import { pageLimit } from './input.ts';
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
  "Caller needs platform:read and visibility of the environment; `usage: server` (default) needs the token role connector:server, `browser` uses the calling user's browser-usage credentials. Errors carry a stable `code`: 400 METHOD_MISSING, 409 CONNECTOR_DISABLED, 422 SCRIPT_INVALID or NO_DEFAULT_CLASS, 502 CONNECTOR_HTTP_ERROR (with `connectorStatus`), FETCH_REFUSED, MEMORY_LIMIT, STACK_LIMIT, FETCH_LIMIT, RESPONSE_TOO_LARGE (with `limit`), SESSION_ENDED (another call of the same session tripped a limit) or CONNECTOR_ERROR, 503 RUNTIME_BUSY when the caller's subscription waits with its whole share of the runtime (`Retry-After`), 504 TIME_LIMIT.";
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
    id: 'connectorRuntime.mediaUpload',
    method: 'POST',
    path: `${BASE}/media/upload`,
    summary: 'Run upload(filePointers, context) of a media connector: the Media it made',
    description: `Files uploaded through the connector. REST takes \`multipart/form-data\`: one or more \`file\` parts (each with its file name and type) and the optional JSON text parts \`usage\`, \`options\` and \`context\`; at most ${UPLOAD_MAX_FILES} files, 50 MiB each and 100 MiB in all (413 past a size; the general 1 MiB body limit does not apply), another body type is 415. tRPC takes \`{files: [{name, contentType?, base64}], usage?, options?, context?}\` within its 1 MiB body. Each file becomes a FilePointer {id, url, name} whose bytes stay on the platform for the call. Only a connector whose getCapabilities() says \`upload: true\` has it (else 400 METHOD_MISSING). ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: MediaUploadBody,
    multipart: {
      fields: RunBody,
      fileField: 'file',
      maxFileBytes: UPLOAD_FILE_MAX_BYTES,
      maxTotalBytes: UPLOAD_TOTAL_MAX_BYTES,
      maxFiles: UPLOAD_MAX_FILES,
    },
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: mediaUpload,
  }),
  defineOperation({
    id: 'connectorRuntime.dataPage',
    method: 'POST',
    path: `${BASE}/data/page`,
    summary: 'Run getPage(config, context) of a data connector: a DataPage',
    description: `A data connector's page: forward with \`config.continuationToken\`, backward with \`config.previousPageToken\` (never both: 400); \`limit\` may be 0. ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: DataPageBody,
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: dataPage,
  }),
  defineOperation({
    id: 'connectorRuntime.dataItem',
    method: 'POST',
    path: `${BASE}/data/item`,
    summary: 'Run getPageItemById(id, pageOptions, context) of a data connector: a DataPageItem',
    description: `One item of a data connector by its id, with the tokens of the pages around it (\`pageOptions\`: their \`limit\` and \`sorting\`). Only a connector whose getCapabilities() says \`dataSourceVariable: true\` has it (else 400 METHOD_MISSING). ${RUN_RULES}`,
    ...run,
    params: connectorParams,
    body: DataItemBody,
    response: ConnectorAnswer,
    status: 200,
    errors: runErrors,
    service: dataItem,
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
    bodyOptional: true,
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
    query: z.object({ limit: pageLimit(1000).describe('Most entries, 1 to 1000; default 100.') }),
    response: ActivityList,
    status: 200,
    errors: [400, 404],
    service: connectorActivity,
  }),
];
