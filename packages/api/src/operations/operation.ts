import type { AuditAction, DescribeUnknownKey } from '@platform/core';
import type { AuditTargetType } from '@platform/store';
import type { z } from 'zod';
import type { Tag } from '../openapi/tags.ts';
import type { Service } from '../services/context.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The token role an operation needs (docs/authentication.md); `public` needs no token. */
export type Access = 'public' | 'platform:read' | 'platform:write' | 'platform:ingest';

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * A body REST takes as `multipart/form-data` (rest/read-multipart.ts), outside the JSON body limit: file parts named
 * `fileField` (each at most `maxFileBytes`, all at most `maxTotalBytes`, at most `maxFiles`: 413 past a size) and
 * JSON text parts, checked by `fields` as a JSON body is. The service's body is the fields plus `files: [{name,
 * contentType, bytes}]`; tRPC, which carries JSON only, takes `body` with the files in base64.
 */
export type MultipartForm = {
  readonly fields: AnyObject;
  readonly fileField: string;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  readonly maxFiles: number;
};

/**
 * One row of the operation table: everything the REST routes, the tRPC router and the OpenAPI document need.
 * `I` is the service input: path and query parameters flattened, plus `body`.
 */
export type Operation<I = unknown, O = unknown> = {
  /** tRPC path, such as `subscriptions.renders`; also the OpenAPI operationId. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Exact REST path with `{param}` placeholders. */
  readonly path: string;
  /** One line for the API reference's list. */
  readonly summary: string;
  /** What the operation does and the rules a caller meets (roles, order, limits); required on every row. */
  readonly description: string;
  readonly tag: Tag;
  readonly access: Access;
  /** The caller must also hold `platform:admin` (operators), judged with the token before the body is read. */
  readonly operatorOnly?: boolean;
  readonly params?: AnyObject;
  /**
   * What a malformed path parameter answers: 400 where the specification's table lists 400 for the endpoint,
   * else 404, since such an id cannot name anything (docs/errors.md).
   */
  readonly malformedParams?: 400 | 404;
  readonly query?: AnyObject;
  readonly body?: z.ZodType;
  /** REST reads the body as `multipart/form-data` (the OpenAPI document states it so); tRPC takes `body`. */
  readonly multipart?: MultipartForm;
  /** Every field of the body is optional: a request without any body reads as `{}` (the document says so). */
  readonly bodyOptional?: boolean;
  /** Largest JSON body accepted, in bytes; default 1 MiB (docs/errors.md: over it, 413). */
  readonly bodyLimit?: number;
  /** Most JSON values (keys included) a body may hold; default 100,000 (docs/errors.md: over it, 413). */
  readonly bodyValueLimit?: number;
  readonly bodyDescription?: string;
  /**
   * The body as the document states it, when the service parses the body itself to name every problem its own way
   * (a data file's unknown keys with the key meant); `body` then accepts anything, typed as this schema's input.
   */
  readonly documentedBody?: z.ZodType;
  /** How the body's unknown keys are named in `errors` (render events: with the key meant); `unknown field` else. */
  readonly describeUnknownKey?: DescribeUnknownKey;
  /**
   * `text/html`: the service returns a page with its own headers (the OAuth redirect a browser lands on,
   * services/authorization-code/redirect-page.ts); `application/octet-stream`: bytes with their own content type
   * (services/connector-runtime/run-methods.ts BinaryAnswer; tRPC answers them as `{contentType, base64}`);
   * default JSON.
   */
  readonly produces?: 'text/html' | 'application/octet-stream';
  /**
   * A POST that writes nothing any cached read holds (a connector run writes only its activity entry): the read
   * cache is kept after it.
   */
  readonly readsOnly?: boolean;
  /**
   * The audit action of a write (docs/audit.md) and the kind of thing it changes. The service records a success
   * itself, in the transaction of its change; a refusal with 403 is recorded from here, naming the target by the
   * path parameter `targetParam` (default: the environment or subscription the path names).
   */
  readonly audit?: {
    readonly action: AuditAction;
    readonly target: AuditTargetType;
    readonly targetParam?: string;
  };
  /** Response body schema; absent for operations that answer without a body. */
  readonly response?: z.ZodType;
  readonly status: 200 | 201 | 202 | 204;
  /** Error statuses the endpoint documents, besides 401/403/429/500 which every protected one can give. */
  readonly errors: readonly number[];
  readonly service: Service<I, O>;
};

// biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every input and output type.
export type AnyOperation = Operation<any, any>;

/**
 * Identity with inference: keeps each row's id, method, schemas, input and output types for the typed tRPC router,
 * whose procedure inputs are what the schemas accept (`groupBy: 'year' | 'month'`, `top: number`).
 */
export const defineOperation = <
  const Id extends string,
  const M extends HttpMethod,
  I,
  O,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  D extends z.ZodType | undefined = undefined,
>(
  operation: Operation<I, O> & { id: Id; method: M; params?: P; query?: Q; body?: B; documentedBody?: D },
): Operation<I, O> & { id: Id; method: M; params?: P; query?: Q; body?: B; documentedBody?: D } => operation;

type InputOfSchema<S> = [S] extends [z.ZodType] ? z.input<S> : Record<never, never>;

/**
 * What a client sends to an operation over tRPC: the path and query parameters as their schemas accept them, plus
 * `body` (typed by `documentedBody` where the service parses the body itself). Omittable when nothing is required.
 */
export type ClientInput<Op> = Op extends {
  params?: infer P;
  query?: infer Q;
  body?: infer B;
  documentedBody?: infer D;
}
  ? OmittableWhenEmpty<
      InputOfSchema<P> &
        InputOfSchema<Q> &
        ([B] extends [z.ZodType]
          ? { body: [D] extends [z.ZodType] ? z.input<D> : z.input<B> }
          : Record<never, never>)
    >
  : never;

/** zod's object inputs allow unknown keys (`[k: string]: unknown`); a client names only known ones. */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type OmittableWhenEmpty<T> =
  Record<string, never> extends KnownKeys<T> ? KnownKeys<T> | undefined : KnownKeys<T>;
