import type { z } from 'zod';
import type { Service } from '../context.ts';
import { invokeConnector, jsonOf, type RunInput } from './invoke.ts';
import type {
  DataItemBody,
  DataPageBody,
  MediaDetailBody,
  MediaDownloadBody,
  MediaQueryBody,
  MediaUploadBody,
  RunBody,
} from './schemas.ts';

type Input<B extends z.ZodType> = RunInput & { body: z.output<B> };

/** `GET .../capabilities`: what the connector says it can do, and which configuration it reads. */
export const connectorCapabilities: Service<RunInput, unknown> = async (ctx, input) => {
  const { connector, result } = await invokeConnector(ctx, input, 'getCapabilities', []);
  const options = await invokeConnector(ctx, input, 'getConfigurationOptions', []);
  return {
    type: connector.type,
    capabilities: jsonOf(result),
    configurationOptions: jsonOf(options.result),
    supportedAuth: connector.supportedAuth,
  };
};

/** `POST .../media/query`: `query(query, context)`, the SDK's QueryOptions with its defaults. */
export const mediaQuery: Service<Input<typeof MediaQueryBody>, unknown> = async (ctx, input) => {
  const q = input.body.query;
  const query = {
    filter: q.filter ?? null,
    collection: q.collection ?? null,
    pageToken: q.pageToken ?? null,
    pageSize: q.pageSize ?? 25,
    sortBy: q.sortBy ?? null,
    sortOrder: q.sortOrder ?? null,
  };
  return jsonOf((await invokeConnector(ctx, input, 'query', [query, input.body.context ?? {}])).result);
};

/** `POST .../media/detail`: `detail(id, context)`. */
export const mediaDetail: Service<Input<typeof MediaDetailBody>, unknown> = async (ctx, input) =>
  jsonOf((await invokeConnector(ctx, input, 'detail', [input.body.id, input.body.context ?? {}])).result);

/**
 * `POST .../media/upload`: `upload(filePointers, context)` (a connector with `upload: true`); the files' bytes stay on
 * the host, the connector gets a FilePointer for each.
 */
export const mediaUpload: Service<Input<typeof MediaUploadBody>, unknown> = async (ctx, input) =>
  jsonOf((await invokeConnector(ctx, input, 'upload', [input.body.files, input.body.context ?? {}])).result);

export type BinaryAnswer = { contentType: string; bytes: Uint8Array };

/** `POST .../media/download`: the bytes behind the ArrayBufferPointer `download` returns. */
export const mediaDownload: Service<Input<typeof MediaDownloadBody>, BinaryAnswer> = async (ctx, input) => {
  const { body } = input;
  const { result } = await invokeConnector(ctx, input, 'download', [
    body.id,
    body.previewType,
    body.intent,
    body.context ?? {},
  ]);
  if (result.kind !== 'binary') {
    return { contentType: 'application/json', bytes: new TextEncoder().encode(JSON.stringify(result.value)) };
  }
  return { contentType: result.contentType, bytes: result.bytes };
};

/** `POST .../data/page`: `getPage(config, context)`. */
export const dataPage: Service<Input<typeof DataPageBody>, unknown> = async (ctx, input) =>
  jsonOf(
    (await invokeConnector(ctx, input, 'getPage', [input.body.config, input.body.context ?? {}])).result,
  );

/** `POST .../data/item`: `getPageItemById(id, pageOptions, context)` (a connector with `dataSourceVariable: true`). */
export const dataItem: Service<Input<typeof DataItemBody>, unknown> = async (ctx, input) => {
  const { id, pageOptions, context } = input.body;
  return jsonOf(
    (await invokeConnector(ctx, input, 'getPageItemById', [id, pageOptions, context ?? {}])).result,
  );
};

/** `POST .../data/model`: `getModel(context)`. */
export const dataModel: Service<Input<typeof RunBody>, unknown> = async (ctx, input) =>
  jsonOf((await invokeConnector(ctx, input, 'getModel', [input.body.context ?? {}])).result);
