import { AuthUsage } from '@platform/core';
import { z } from 'zod';

const Dictionary = z
  .record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()]))
  .describe('Key-value pairs handed to the connector.');

/** What every run body may carry; an unknown field is refused, naming it, as on every other route. */
export const RunBody = z.strictObject({
  usage: AuthUsage.optional().describe('`server` (default; token role connector:server) or `browser`.'),
  options: Dictionary.optional().describe("Laid over the connector's published options for this call."),
  context: Dictionary.optional().describe("The method's context argument."),
});

export const MediaQueryBody = RunBody.extend({
  query: z.strictObject({
    filter: z.array(z.string()).nullable().optional(),
    collection: z.string().nullable().optional(),
    pageToken: z.string().nullable().optional(),
    pageSize: z.int().min(1).max(1000).optional(),
    sortBy: z.string().nullable().optional(),
    sortOrder: z.string().nullable().optional(),
  }),
});

export const MediaDetailBody = RunBody.extend({ id: z.string().min(1).max(2048) });

export const MediaDownloadBody = MediaDetailBody.extend({
  previewType: z.enum(['thumbnail', 'mediumres', 'highres', 'fullres', 'original']),
  intent: z.enum(['web', 'print', 'animation']),
});

export const DataPageBody = RunBody.extend({
  config: z.strictObject({
    filters: z.array(z.unknown()).nullable().optional(),
    sorting: z.array(z.unknown()).nullable().optional(),
    limit: z.int().min(1).max(10_000),
    continuationToken: z.string().nullable().optional(),
  }),
});

/** A connector's answers are its own (MediaPage, MediaDetail, DataPage, DataModel of the connector SDK). */
export const ConnectorAnswer = z.unknown().describe("The connector's answer, as the connector SDK types it.");

export const Capabilities = z.object({
  type: z.enum(['media', 'data']),
  capabilities: z.unknown(),
  configurationOptions: z.unknown(),
  supportedAuth: z.array(z.string()),
});

export const DownloadAnswer = z
  .object({ contentType: z.string(), base64: z.string() })
  .describe('REST answers the bytes themselves with the upstream content type; tRPC this object.');

export const ActivityQuery = z.object({
  limit: z
    .string()
    .regex(/^[0-9]{1,4}$/, 'an integer from 1 to 1000')
    .transform(Number)
    .pipe(z.int().min(1, 'an integer from 1 to 1000').max(1000, 'an integer from 1 to 1000'))
    .optional()
    .describe('Most entries, 1 to 1000; default 100.'),
});

export const ActivityFetch = z.object({
  method: z.string(),
  url: z.string().describe('Without query values.'),
  status: z.int().nullable(),
  bytes: z.int(),
  durationMs: z.number(),
  credentialsInjected: z.boolean(),
  error: z.string().optional(),
  aborted: z
    .boolean()
    .optional()
    .describe(
      'True when the invocation ended before the fetch was answered: it was aborted, its connection closed.',
    ),
  requestSent: z
    .boolean()
    .optional()
    .describe(
      "For an aborted fetch: whether its request, with the usage's credentials if any, had gone to the upstream.",
    ),
});

export const ActivityEntry = z.object({
  at: z.iso.datetime(),
  method: z.string(),
  usage: z.string(),
  status: z.int(),
  code: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  fetches: z.array(ActivityFetch),
});

export const ActivityList = z.object({ data: z.array(ActivityEntry) });
