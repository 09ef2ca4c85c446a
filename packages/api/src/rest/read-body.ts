import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ServiceError, ValidationError } from '@platform/core';
import { createBoundedParser, type JsonLimits, NotJsonError } from './bounded-json.ts';
import { inParseTurn } from './parse-turns.ts';

/**
 * Bodies up to this size are parsed in one `JSON.parse` (well under a millisecond, and at most some 32,000 values);
 * larger ones chunk by chunk, one chunk per turn of the event loop, under the operation's value and depth limits.
 */
const PARSE_AT_ONCE = 64 * 1024;

/** An exponent or 16 digits in a row: the only ways JSON text can spell a number JavaScript cannot keep. */
const SUSPECT_NUMBER = /[eE][+-]?\d|\d{16}/;

export type ReadBodyOptions = {
  /** Largest body in bytes, counted after decoding (413 above). */
  readonly limit: number;
  /** A body that stalls this long is cut off. */
  readonly idleMs: number;
  readonly json: JsonLimits;
  /** Charged with every decoded chunk; throws (429) when the caller's budget of decoded bytes is spent. */
  readonly charge?: ((bytes: number) => void) | undefined;
};

/**
 * `\u0000` or a `\uD800`–`\uDFFF` escape, the only ways JSON text can carry U+0000 or a lone surrogate; and
 * `__proto__`, literally or with one of its letters escaped, the only ways it can hold that key.
 */
const SUSPECT_ESCAPE = /\\u(?:0000|d[89a-f]|00(?:5f|6f|70|72|74))|__proto__/i;

export type JsonBody =
  /** `empty`: the request carries no body bytes at all (no framing, or a length of 0). */
  | { readonly present: false; readonly empty: boolean }
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
export const readJsonBody = (req: IncomingMessage, options: ReadBodyOptions): Promise<JsonBody> => {
  const { limit, idleMs } = options;
  const contentType = req.headers['content-type'];
  // As Express's JSON parser judged it: a declared length (0 included) or chunked framing means a body.
  const length = req.headers['content-length'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
  if (!hasBody || !isJson(contentType))
    return Promise.resolve({ present: false, empty: !hasBody || length === '0' });
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
    let streaming: ReturnType<typeof createBoundedParser> | undefined;
    /** A streamed body's bytes checked as UTF-8 as they come (a sequence may straddle two chunks). */
    let utf8: TextDecoder | undefined;
    /** A chunk waits for its parse turn; the end, when it comes meanwhile, is handled after it. */
    let parsing = false;
    /**
     * Set once the text is known not to be JSON: the rest is read without parsing, up to the limit, so that a body
     * both too large and not JSON gets 413 however it is framed (a declared length over the limit gets it unread).
     */
    let notJsonText = false;
    let ended = false;
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
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(tooLarge(limit));
        return;
      }
      try {
        options.charge?.(chunk.length);
      } catch (error) {
        finish(error);
        return;
      }
      if (notJsonText) return;
      // Escapes may straddle two chunks: the end of the previous one is kept and scanned again.
      const text = tail + chunk.toString('latin1');
      if (!suspect && SUSPECT_ESCAPE.test(text)) suspect = true;
      tail = text.slice(-8);
      if (!streaming) {
        chunks.push(chunk);
        if (size <= PARSE_AT_ONCE) return;
        streaming = createBoundedParser(options.json);
        utf8 = new TextDecoder('utf-8', { fatal: true });
      }
      const parser = streaming;
      const validator = utf8;
      const pending = chunks.splice(0);
      if (pending.length === 0) pending.push(chunk);
      // Parsed in the shared turns of parse-turns.ts, the source paused meanwhile: other requests are answered
      // between two chunks, however many bodies stream at once.
      source.pause();
      parsing = true;
      inParseTurn(() => {
        parsing = false;
        if (settled) return;
        try {
          for (const held of pending) validator?.decode(held, { stream: true });
        } catch {
          finish(notUtf8());
          return;
        }
        try {
          for (const held of pending) parser.write(held);
        } catch (error) {
          if (isLimitError(error)) {
            finish(error);
            return;
          }
          notJsonText = true;
        }
        // The source may have ended while its last chunk waited for its turn.
        if (ended) onEnd();
        else source.resume();
      });
    };
    const onEnd = () => {
      ended = true;
      if (parsing) return;
      if (notJsonText) {
        finish(notJson());
        return;
      }
      if (streaming) {
        try {
          utf8?.decode();
        } catch {
          finish(notUtf8());
          return;
        }
        try {
          finish(undefined, { present: true, value: streaming.end(), mayHoldMalformedText: suspect });
        } catch (error) {
          finish(asBodyError(error));
        }
        return;
      }
      const whole = Buffer.concat(chunks, size);
      if (!isUtf8(whole)) {
        finish(notUtf8());
        return;
      }
      const text = whole.toString('utf8');
      // An empty body with a JSON type reads as `{}`, as Express's JSON parser has always read it.
      if (text.trim() === '') {
        finish(undefined, { present: true, value: {}, mayHoldMalformedText: false });
        return;
      }
      try {
        finish(undefined, {
          present: true,
          value: parseAtOnce(text, options.json),
          mayHoldMalformedText: suspect,
        });
      } catch (error) {
        finish(asBodyError(error));
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

const notJson = () =>
  new ValidationError('The request body is not valid JSON.', { body: ['not valid JSON'] });

/** JSON text is UTF-8 (RFC 8259): bytes that are not are refused, never read as U+FFFD and stored so. */
const notUtf8 = () =>
  new ValidationError('The request body is not valid UTF-8; JSON text is UTF-8.', {
    body: ['not valid UTF-8'],
  });

/** A limit of the parser's own (values, depth): anything else it throws means the text is not JSON. */
const isLimitError = (error: unknown): error is ServiceError =>
  error instanceof ServiceError && !(error instanceof NotJsonError);

/** The limits' own errors as they are; anything else the parser throws means the text is not JSON. */
const asBodyError = (error: unknown) => (isLimitError(error) ? error : notJson());

/**
 * A small body in one `JSON.parse`; one whose text could spell a number JavaScript cannot keep goes through the
 * bounded parser, which sees each number's text (JSON.parse would turn `1e400` into Infinity without a word).
 */
const parseAtOnce = (text: string, limits: JsonLimits): unknown => {
  if (!SUSPECT_NUMBER.test(text)) return JSON.parse(text);
  const parser = createBoundedParser(limits);
  parser.write(text);
  return parser.end();
};
