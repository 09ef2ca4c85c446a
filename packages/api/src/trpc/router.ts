import { isServiceError } from '@platform/core';
import {
  initTRPC,
  type TRPC_ERROR_CODE_KEY,
  type TRPCError,
  TRPCError as TRPCErrorClass,
  type TRPCMutationProcedure,
  type TRPCQueryProcedure,
} from '@trpc/server';
import { authorizeAudited } from '../operations/authorize.ts';
import { parseInput } from '../operations/input.ts';
import type { AnyOperation, ClientInput, Operation } from '../operations/operation.ts';
import { runOperation } from '../operations/run.ts';
import type { AppDeps } from '../rest/context.ts';
import type { Identity } from '../rest/identify.ts';
import { classify } from '../rest/problem-response.ts';
import type { BinaryAnswer } from '../services/connector-runtime/run-methods.ts';
import { errorCodeOf } from './error-code.ts';

export type TrpcContext = {
  deps: AppDeps;
  identity: Identity | undefined;
  traceId: string;
  /** The client's address through the trusted proxies (client-address.ts). */
  clientAddress: string | undefined;
  /** The request body was scanned for escapes of U+0000 and surrogates and holds none (read-body.ts). */
  bodyTextChecked: boolean;
  /** Each call's procedure and status at its place in the batch, for its own log line (request-log.ts). */
  callLog: { path: string; status: number }[];
};

/** Each service error maps once to the nearest tRPC code; the HTTP status and field errors travel in `data`. */
export const trpcCode: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

const toTRPCError = (error: unknown): TRPCError => {
  const { status, detail } = classify(error);
  return new TRPCErrorClass({
    code: trpcCode[status] ?? 'INTERNAL_SERVER_ERROR',
    message: detail,
    cause: error,
  });
};

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, ctx }) {
    const cause = error.cause;
    const serviceError = isServiceError(cause) ? cause : undefined;
    return {
      ...shape,
      // Unknown errors never leak their message (the REST transport does the same).
      message:
        serviceError || error.code !== 'INTERNAL_SERVER_ERROR' ? shape.message : classify(cause).detail,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        traceId: ctx?.traceId,
        errorCode: errorCodeOf(serviceError, shape.data.httpStatus),
        ...(serviceError?.errors ? { errors: serviceError.errors } : {}),
        ...serviceError?.members,
      },
    };
  },
});

type Area<Id extends string> = Id extends `${infer A}.${string}` ? A : never;
type Verb<Id extends string> = Id extends `${string}.${infer V}` ? V : never;
type OutputOf<Op, O> = Op extends { produces: 'application/octet-stream' } ? BinaryOverTrpc : O;
type BinaryOverTrpc = { contentType: string; base64: string };
type ProcedureOf<Op> =
  Op extends Operation<infer _I, infer _O>
    ? Op extends { method: 'GET' }
      ? TRPCQueryProcedure<{ input: ClientInput<Op>; output: OutputOf<Op, _O>; meta: object }>
      : TRPCMutationProcedure<{ input: ClientInput<Op>; output: OutputOf<Op, _O>; meta: object }>
    : never;

/** The nested procedure record of an operation table: `{ subscriptions: { renders: … } }`. */
export type RouterShape<Ops extends AnyOperation & { id: string }> = {
  [A in Area<Ops['id']>]: {
    [Op in Ops as Area<Op['id']> extends A ? Verb<Op['id']> : never]: ProcedureOf<Op>;
  };
};

const splitInput = (operation: AnyOperation, input: unknown) => {
  const all = (input ?? {}) as Record<string, unknown>;
  const pick = (keys: string[]) => Object.fromEntries(keys.filter((k) => k in all).map((k) => [k, all[k]]));
  return {
    params: pick(Object.keys(operation.params?.shape ?? {})),
    query: pick(Object.keys(operation.query?.shape ?? {})),
    body: all.body,
    hasBody: 'body' in all,
    // No `body` key at all is tRPC's way to send none: a route whose body is all optional fields takes it as `{}`.
    bodyEmpty: !('body' in all),
  };
};

/** The tRPC router of an operation table: same authorization, validation and services as REST. */
export const buildTrpcRouter = <const Ops extends readonly (AnyOperation & { id: string })[]>(
  operations: Ops,
) => {
  const record: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const [area, verb] = operation.id.split('.') as [string, string];
    const procedure = t.procedure.input((value: unknown) => value);
    // A query's input comes from the URL, never scanned: only a mutation's body can be vouched for.
    const scanned = operation.method !== 'GET';
    const run = async (opts: { ctx: TrpcContext; input: unknown; batchIndex?: number }) => {
      const { ctx, input } = opts;
      const place = opts.batchIndex ?? 0;
      try {
        const request = { traceId: ctx.traceId, clientAddress: ctx.clientAddress };
        const caller = await authorizeAudited(ctx.deps, operation, ctx.identity, request, input);
        const parsed = parseInput(operation, {
          ...splitInput(operation, input),
          bodyTextChecked: scanned && ctx.bodyTextChecked,
        });
        const output = await runOperation(ctx.deps, operation, caller, request, parsed);
        ctx.callLog[place] = { path: operation.id, status: 200 };
        if (operation.produces === 'application/octet-stream') {
          const { contentType, bytes } = output as BinaryAnswer;
          return { contentType, base64: Buffer.from(bytes).toString('base64') };
        }
        return output;
      } catch (error) {
        ctx.callLog[place] = { path: operation.id, status: classify(error).status };
        throw toTRPCError(error);
      }
    };
    record[area] ??= {};
    record[area][verb] = operation.method === 'GET' ? procedure.query(run) : procedure.mutation(run);
  }
  return t.router(record as unknown as RouterShape<Ops[number]>);
};
