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
  url: z
    .string()
    .describe(
      'Without query values or user information; a URL that does not parse is shown as `(invalid URL)` and its text before any `?` or `#`.',
    ),
  status: z.int().nullable(),
  bytes: z.int(),
  durationMs: z.number(),
  credentialsInjected: z.boolean(),
  error: z.string().optional().describe('Redacted (`***` for a secret), at most 1 KiB.'),
});

export const ActivityEntry = z.object({
  at: z.iso.datetime(),
  method: z.string(),
  usage: z.string(),
  status: z.int(),
  code: z.string().nullable(),
  error: z
    .string()
    .nullable()
    .describe(
      "The connector's error, every secret the platform holds for it replaced by `***`, at most 1 KiB.",
    ),
  durationMs: z.number(),
  fetches: z.array(ActivityFetch),
  logs: z
    .array(z.string())
    .describe(
      "The connector's `runtime.logError` messages, redacted as `error`, each at most 1 KiB, at most 20.",
    ),
});

export const ActivityList = z.object({ data: z.array(ActivityEntry) });
