import { z } from 'zod';
import type { FieldErrors } from './errors.ts';

/**
 * See docs/errors.md: every field optional and nullable; additional properties allowed. Every error this
 * platform answers also carries `traceId`, and a validation error `errors`.
 */
export const ProblemDetails = z
  .looseObject({
    type: z.string().nullable().optional().describe('The RFC 9110 section of the status.'),
    title: z.string().nullable().optional().describe("The status's reason phrase."),
    status: z.int32().nullable().optional(),
    detail: z.string().nullable().optional().describe('What went wrong, as a sentence a person can act on.'),
    instance: z.string().nullable().optional(),
    traceId: z
      .string()
      .optional()
      .describe("The W3C trace id of the request (a valid incoming traceparent's, else a new one)."),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe('Validation errors: each bad parameter or field, by name or path, with its messages.'),
  })
  .meta({
    id: 'ProblemDetails',
    examples: [
      {
        type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
        title: 'Bad Request',
        status: 400,
        detail: 'The render query is not valid: groupBy must be year or month.',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        errors: { groupBy: ['groupBy must be year or month.'] },
      },
    ],
  });
export type ProblemDetails = z.infer<typeof ProblemDetails>;

/** RFC 9110 section of each status docs/errors.md names. */
const statusSections: Record<number, { section: string; title: string }> = {
  400: { section: '15.5.1', title: 'Bad Request' },
  401: { section: '15.5.2', title: 'Unauthorized' },
  403: { section: '15.5.4', title: 'Forbidden' },
  404: { section: '15.5.5', title: 'Not Found' },
  405: { section: '15.5.6', title: 'Method Not Allowed' },
  406: { section: '15.5.7', title: 'Not Acceptable' },
  408: { section: '15.5.9', title: 'Request Timeout' },
  409: { section: '15.5.10', title: 'Conflict' },
  410: { section: '15.5.11', title: 'Gone' },
  411: { section: '15.5.12', title: 'Length Required' },
  413: { section: '15.5.14', title: 'Content Too Large' },
  414: { section: '15.5.15', title: 'URI Too Long' },
  415: { section: '15.5.16', title: 'Unsupported Media Type' },
  417: { section: '15.5.18', title: 'Expectation Failed' },
  422: { section: '15.5.21', title: 'Unprocessable Content' },
  429: { section: '6', title: 'Too Many Requests' },
  431: { section: '5', title: 'Request Header Fields Too Large' },
  500: { section: '15.6.1', title: 'Internal Server Error' },
  501: { section: '15.6.2', title: 'Not Implemented' },
  502: { section: '15.6.3', title: 'Bad Gateway' },
  503: { section: '15.6.4', title: 'Service Unavailable' },
  504: { section: '15.6.5', title: 'Gateway Timeout' },
};

export const statusTitle = (status: number): string => statusSections[status]?.title ?? 'Error';

export const statusType = (status: number): string => {
  // 429 and 431 are defined by RFC 6585, not RFC 9110.
  if (status === 429) return 'https://tools.ietf.org/html/rfc6585#section-4';
  if (status === 431) return 'https://tools.ietf.org/html/rfc6585#section-5';
  const known = statusSections[status];
  return known ? `https://tools.ietf.org/html/rfc9110#section-${known.section}` : 'about:blank';
};

export type ProblemInput = {
  status: number;
  detail: string;
  traceId: string;
  errors?: FieldErrors | undefined;
  instance?: string | undefined;
};

/** Builds the ProblemDetails body of docs/errors.md. */
export const problem = ({ status, detail, traceId, errors, instance }: ProblemInput): ProblemDetails => ({
  type: statusType(status),
  title: statusTitle(status),
  status,
  detail,
  ...(instance === undefined ? {} : { instance }),
  ...(errors === undefined ? {} : { errors }),
  traceId,
});
