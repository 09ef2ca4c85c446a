import type { z } from 'zod';
import type { Service } from '../services/context.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The token role an operation needs (docs/authentication.md); `public` needs no token. */
export type Access = 'public' | 'platform:read' | 'platform:write' | 'platform:ingest';

type AnyObject = z.ZodObject<z.ZodRawShape>;

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
  readonly summary: string;
  readonly tag: string;
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
  /** Largest JSON body accepted, in bytes; default 1 MiB (docs/errors.md: over it, 413). */
  readonly bodyLimit?: number;
  readonly bodyDescription?: string;
  /** `text/html`: the service returns a page (the OAuth redirect a browser lands on); default JSON. */
  readonly produces?: 'text/html';
  /** Response body schema; absent for operations that answer without a body. */
  readonly response?: z.ZodType;
  readonly status: 200 | 201 | 202 | 204;
  /** Error statuses the endpoint documents, besides 401/403/429/500 which every protected one can give. */
  readonly errors: readonly number[];
  readonly service: Service<I, O>;
};

// biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every input and output type.
export type AnyOperation = Operation<any, any>;

/** Identity with inference: keeps each row's id, method, input and output types for the typed tRPC router. */
export const defineOperation = <const Id extends string, const M extends HttpMethod, I, O>(
  operation: Operation<I, O> & { id: Id; method: M },
): Operation<I, O> & { id: Id; method: M } => operation;
