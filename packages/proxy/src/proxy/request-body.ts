import type { IncomingMessage } from 'node:http';
import { ServiceError } from '@platform/core';

/** Bodies up to this size are buffered so that a 401 retry or a 307/308 redirect can send them again. */
export const replayableBodyLimit = 1024 * 1024;

export type RequestBody =
  | { kind: 'none' }
  | { kind: 'buffered'; data: Buffer }
  /** Streamed straight through: larger or of unknown length; sent once, never retried. */
  | { kind: 'stream'; stream: IncomingMessage; length: number | undefined };

const NO_BODY: RequestBody = { kind: 'none' };

/** The caller's body: at once when there is none or it is streamed, once read when it is buffered. */
export const readRequestBody = (req: IncomingMessage): RequestBody | Promise<RequestBody> => {
  const lengthHeader = req.headers['content-length'];
  const length = lengthHeader === undefined ? undefined : Number(lengthHeader);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === 0)) return NO_BODY;
  if (chunked || length === undefined || !Number.isSafeInteger(length) || length > replayableBodyLimit) {
    return { kind: 'stream', stream: req, length: chunked ? undefined : length };
  }
  return bufferBody(req);
};

const bufferBody = async (req: IncomingMessage): Promise<RequestBody> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > replayableBodyLimit)
      throw new ServiceError('PAYLOAD_TOO_LARGE', 'The request body exceeds its Content-Length.');
    chunks.push(chunk as Buffer);
  }
  return { kind: 'buffered', data: Buffer.concat(chunks) };
};
