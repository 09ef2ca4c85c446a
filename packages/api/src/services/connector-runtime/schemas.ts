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
    pageSize: z
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('0 asks for no items (some connectors answer a count).'),
    sortBy: z.string().nullable().optional(),
    sortOrder: z.string().nullable().optional(),
  }),
});

export const MediaDetailBody = RunBody.extend({ id: z.string().min(1).max(2048) });

export const MediaDownloadBody = MediaDetailBody.extend({
  previewType: z.enum(['thumbnail', 'mediumres', 'highres', 'fullres', 'original']),
  intent: z.enum(['web', 'print', 'animation']),
});

const Sorting = z
  .array(z.unknown())
  .nullable()
  .optional()
  .describe('DataSorting items: {property, direction}.');
const Limit = z.int().min(0).max(10_000);

/** The SDK's BidirectionalPageConfig: a page forward (`continuationToken`) or backward (`previousPageToken`). */
export const DataPageBody = RunBody.extend({
  config: z
    .strictObject({
      filters: z.array(z.unknown()).nullable().optional(),
      sorting: Sorting,
      limit: Limit,
      continuationToken: z.string().nullable().optional(),
      previousPageToken: z
        .string()
        .nullable()
        .optional()
        .describe('The page before the one that answered it; never together with continuationToken.'),
    })
    .superRefine((config, ctx) => {
      if (config.previousPageToken != null && config.continuationToken != null) {
        ctx.addIssue({
          code: 'custom',
          path: ['previousPageToken'],
          message: 'give previousPageToken or continuationToken, not both',
        });
      }
    }),
});

/** getPageItemById's arguments: the item's id and the SDK's PageItemOptions, to build the tokens around it. */
export const DataItemBody = RunBody.extend({
  id: z.string().min(1).max(2048),
  pageOptions: z.strictObject({ limit: Limit, sorting: Sorting }),
});

/** What one upload may carry (docs/environment-api.md): each file, all files, how many. */
export const UPLOAD_FILE_MAX_BYTES = 50 * 1024 * 1024;
export const UPLOAD_TOTAL_MAX_BYTES = 100 * 1024 * 1024;
export const UPLOAD_MAX_FILES = 100;

/**
 * A file over tRPC, which carries JSON only: its bytes in base64, within tRPC's body limit (REST takes the file parts
 * of a multipart/form-data body, up to the upload limits).
 */
const UploadedFile = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name may not hold.
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters'),
    contentType: z
      .string()
      .regex(
        /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/,
        'a media type (type/subtype)',
      )
      .optional()
      .describe('Default application/octet-stream.'),
    base64: z.base64().describe("The file's bytes in base64."),
  })
  .transform(({ name, contentType, base64 }) => {
    const bytes = Buffer.from(base64, 'base64');
    return {
      name,
      contentType: contentType ?? 'application/octet-stream',
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    };
  });

/** `media/upload` over tRPC; REST reads the same fields as JSON text parts of its form (UploadForm). */
export const MediaUploadBody = RunBody.extend({ files: z.array(UploadedFile).min(1).max(UPLOAD_MAX_FILES) });

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
