import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ServiceError, ValidationError } from '@platform/core';
import { JSONParser } from '@streamparser/json';

/** Bodies up to this size are parsed in one `JSON.parse` (a few milliseconds); larger ones chunk by chunk. */
const PARSE_AT_ONCE = 1024 * 1024;

/**
 * `\u0000` or a `\uD800`–`\uDFFF` escape, the only ways JSON text can carry U+0000 or a lone surrogate; and
 * `__proto__`, literally or with one of its letters escaped, the only ways it can hold that key.
 */
const SUSPECT_ESCAPE = /\\u(?:0000|d[89a-f]|00(?:5f|6f|70|72|74))|__proto__/i;

export type JsonBody =
  | { readonly present: false }
  | {
      readonly present: true;
      readonly value: unknown;
      /** False when the raw text can spell neither U+0000, a surrogate nor a `__proto__` key: nothing to walk. */
      readonly mayHoldMalformedText: boolean;
    };

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const isJson = (contentType: string | undefined) => {
  const type = contentType?.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
};

/** True while the request still has body bytes the server has not read. */
export const bodyUnread = (req: IncomingMessage): boolean => !req.complete;

/**
 * Reads a JSON request body under `limit` bytes, counted after decoding (docs/errors.md): `Content-Encoding`
 * gzip, deflate or br is decoded as it streams (a compressed bomb stops at the limit, never in memory), another
 * encoding is 415, data that fails to decode is 400. Large bodies are parsed incrementally, one network chunk per
 * turn of the event loop, so that no body holds the process for long. A request without a JSON content type has
 * no body for the operation (`present: false`) and is left unread.
 */
export const readJsonBody = (req: IncomingMessage, limit: number, idleMs: number): Promise<JsonBody> => {
  const contentType = req.headers['content-type'];
  // As Express's JSON parser judged it: a declared length (0 included) or chunked framing means a body.
  const length = req.headers['content-length'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
  if (!hasBody || !isJson(contentType)) return Promise.resolve({ present: false });
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return Promise.reject(
      new ValidationError('The request body must be UTF-8 JSON.', { body: ['unsupported charset'] }),
    );
  }
  const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const identity = coding === 'identity' || coding === '';
  const makeDecoder = identity ? undefined : DECODERS[coding];
  if (!identity && !makeDecoder) {
    return Promise.reject(
      new ServiceError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Encoding '${coding}' is not supported: send the body as it is, or gzip, deflate or br.`,
      ),
    );
  }
  if (identity && Number(length) > limit) return Promise.reject(tooLarge(limit));
  const decoder = makeDecoder?.();
  return new Promise((resolve, reject) => {
    const source: Readable = decoder ? req.pipe(decoder as unknown as NodeJS.WritableStream & Readable) : req;
    const chunks: Buffer[] = [];
    let size = 0;
    let raw = 0;
    let tail = '';
    let suspect = false;
    let streaming: JSONParser | undefined;
    let parsed: { value: unknown } | undefined;
    let settled = false;
    let idle: NodeJS.Timeout | undefined;

    const finish = (error: unknown, body?: JsonBody) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      req.off('data', countRaw);
      req.off('error', onAborted);
      req.off('close', onClose);
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      if (decoder) {
        req.unpipe(decoder as unknown as NodeJS.WritableStream);
        (decoder as unknown as Readable).destroy();
      }
      if (error) {
        // Stop reading: whatever was not read yet is never buffered (the connection is closed after the answer).
        req.pause();
        reject(error);
      } else resolve(body as JsonBody);
    };
    // A client that stops sending in the middle of its body is not waited for (docs/configuration.md).
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        finish(new ValidationError('The request body stopped arriving.'));
        req.socket.destroy();
      }, idleMs);
    };
    const countRaw = (chunk: Buffer) => {
      raw += chunk.length;
      touch();
      if (raw > limit) finish(tooLarge(limit));
    };
    const startStreaming = () => {
      const parser = new JSONParser({ paths: ['$'], keepStack: false });
      parser.onValue = ({ value }) => {
        parsed = { value };
      };
      parser.onError = (error) => finish(notJson(error));
      for (const chunk of chunks) parser.write(chunk);
      chunks.length = 0;
      return parser;
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(tooLarge(limit));
        return;
      }
      // Escapes may straddle two chunks: the end of the previous one is kept and scanned again.
      const text = tail + chunk.toString('latin1');
      if (!suspect && SUSPECT_ESCAPE.test(text)) suspect = true;
      tail = text.slice(-8);
      if (!streaming) {
        chunks.push(chunk);
        if (size > PARSE_AT_ONCE) streaming = startStreaming();
        return;
      }
      streaming.write(chunk);
      // One chunk per turn of the event loop: other requests are answered between two chunks.
      source.pause();
      setImmediate(() => {
        if (!settled) source.resume();
      });
    };
    const onEnd = () => {
      if (streaming) {
        if (!settled && !streaming.isEnded) {
          try {
            streaming.end();
          } catch (error) {
            finish(notJson(error));
            return;
          }
        }
        if (!parsed) {
          finish(notJson());
          return;
        }
        finish(undefined, { present: true, value: parsed.value, mayHoldMalformedText: suspect });
        return;
      }
      const text = Buffer.concat(chunks, size).toString('utf8');
      // An empty body with a JSON type reads as `{}`, as Express's JSON parser has always read it.
      if (text.trim() === '') {
        finish(undefined, { present: true, value: {}, mayHoldMalformedText: false });
        return;
      }
      try {
        finish(undefined, { present: true, value: JSON.parse(text), mayHoldMalformedText: suspect });
      } catch (error) {
        finish(notJson(error));
      }
    };
    // Errors of the source are the decoder's when there is one (the data is not what its encoding says).
    const onError = () =>
      finish(
        decoder
          ? new ValidationError(`The request body is not valid ${coding} data.`, {
              body: [`not valid ${coding} data`],
            })
          : new ValidationError('The request was aborted.'),
      );
    const onAborted = () => finish(new ValidationError('The request was aborted.'));
    // 'close' also follows a complete body (before a decoder has emptied itself): only an incomplete one aborts.
    const onClose = () => {
      if (!req.complete) onAborted();
    };

    req.on('data', countRaw);
    req.on('error', onAborted);
    req.on('close', onClose);
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    touch();
  });
};

const tooLarge = (limit: number) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than the ${limit} bytes this endpoint accepts.`,
  );

const notJson = (_cause?: unknown) =>
  new ValidationError('The request body is not valid JSON.', { body: ['not valid JSON'] });
