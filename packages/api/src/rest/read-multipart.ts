import type { IncomingMessage } from 'node:http';
import { addFieldErrors, type FieldErrors, ServiceError, ValidationError } from '@platform/core';
import busboy from 'busboy';
import type { MultipartForm } from '../operations/operation.ts';

export type UploadedFile = { name: string; contentType: string; bytes: Uint8Array };

/** A `multipart/form-data` body as read: its text parts parsed as JSON, by name, and its file parts in order. */
export type MultipartBody = { fields: Record<string, unknown>; files: UploadedFile[] };

/** Each text part (`usage`, `options`, `context`) is small; its own limit, apart from the files'. */
const TEXT_PART_MAX_BYTES = 1024 * 1024;

const MiB = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`;

/** A part's type, when it is one (`type/subtype`, parameters allowed); anything else is sent as bytes. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a file name may not hold.
const CONTROL = /[\u0000-\u001f\u007f]/;

const isMultipart = (contentType: string | undefined) =>
  contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'multipart/form-data';

/**
 * Reads a `multipart/form-data` body with busboy as it streams (docs/errors.md): file parts named `form.fileField`
 * are kept in memory up to `form.maxFileBytes` each and `form.maxTotalBytes` in all (413 past either, the rest left
 * unread); text parts named in `form.textFields` are JSON (a bare word for `usage`); any other part, a file part
 * without a file name, a part given twice or no file at all is 400 naming the part. Another body type, or an encoded
 * one, is 415. The caller's body budget (body-budget.ts) is not charged: it guards the time JSON parsing takes, and a
 * form is only split, while the upload limits bound what one request holds (a file of 50 MiB must pass).
 */
export const readMultipartBody = (
  req: IncomingMessage,
  form: MultipartForm,
  idleMs: number,
): Promise<MultipartBody> => {
  if (!isMultipart(req.headers['content-type'])) {
    return Promise.reject(
      new ServiceError(
        'UNSUPPORTED_MEDIA_TYPE',
        `This endpoint takes multipart/form-data: send one or more '${form.fileField}' file parts.`,
      ),
    );
  }
  const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (coding !== 'identity' && coding !== '') {
    return Promise.reject(
      new ServiceError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Encoding '${coding}' is not supported here: send the parts as they are.`,
      ),
    );
  }
  const textFields = Object.keys(form.fields.shape);
  // Everything a body may hold: the files, each text part, and room for the parts' headers.
  const bodyLimit = form.maxTotalBytes + (textFields.length + 1) * TEXT_PART_MAX_BYTES;
  if (Number(req.headers['content-length']) > bodyLimit) return Promise.reject(totalTooLarge(form));

  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = {};
    const files: UploadedFile[] = [];
    const errors: FieldErrors = {};
    let total = 0;
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // One byte past the limit, so that a file of exactly the limit is whole and one byte more is seen.
        limits: { fileSize: form.maxFileBytes + 1, fieldSize: TEXT_PART_MAX_BYTES, files: form.maxFiles },
      });
    } catch {
      reject(notMultipart('the Content-Type has no boundary'));
      return;
    }

    const finish = (error: unknown, body?: MultipartBody) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      req.off('data', touch);
      req.off('close', onClose);
      req.unpipe(parser);
      if (error) {
        // Whatever was not read yet is never buffered (the connection is closed after the answer).
        parser.removeAllListeners();
        parser.on('error', () => {});
        req.pause();
        reject(error);
      } else resolve(body as MultipartBody);
    };
    // A client that stops sending in the middle of its body is not waited for (docs/configuration.md).
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        finish(new ValidationError('The request body stopped arriving.'));
        req.socket.destroy();
      }, idleMs);
    };
    const onClose = () => {
      if (!req.complete) finish(new ValidationError('The request was aborted.'));
    };

    parser.on('file', (name, stream, info) => {
      if (name !== form.fileField) {
        addFieldErrors(errors, name, [`not a part of this form: send files as '${form.fileField}'`]);
        stream.resume();
        return;
      }
      const filename = info.filename?.trim() ?? '';
      if (filename === '' || filename.length > 255 || CONTROL.test(filename)) {
        addFieldErrors(errors, form.fileField, [
          'each file part needs a file name of 1 to 255 characters without control characters',
        ]);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        total += chunk.length;
        if (size > form.maxFileBytes) {
          finish(
            new ServiceError(
              'PAYLOAD_TOO_LARGE',
              `The file '${filename}' is larger than the ${MiB(form.maxFileBytes)} a file may have.`,
            ),
          );
          return;
        }
        if (total > form.maxTotalBytes) {
          finish(totalTooLarge(form));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (settled) return;
        const bytes = Buffer.concat(chunks, size);
        const contentType = MEDIA_TYPE.test(info.mimeType) ? info.mimeType : 'application/octet-stream';
        files.push({
          name: filename,
          contentType,
          bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, size),
        });
      });
    });
    parser.on('field', (name, value, info) => {
      if (name === form.fileField) {
        addFieldErrors(errors, name, ['must be a file part (with a file name), not text']);
        return;
      }
      if (!textFields.includes(name)) {
        addFieldErrors(errors, name, ['not a part of this form']);
        return;
      }
      if (info.valueTruncated) {
        finish(
          new ServiceError(
            'PAYLOAD_TOO_LARGE',
            `The part '${name}' is larger than ${MiB(TEXT_PART_MAX_BYTES)}.`,
          ),
        );
        return;
      }
      if (name in fields) {
        addFieldErrors(errors, name, ['given twice: send each text part once']);
        return;
      }
      try {
        fields[name] = JSON.parse(value);
      } catch {
        // `usage` is a word: `server` needs no JSON quotes.
        if (name === 'usage') fields[name] = value.trim();
        else addFieldErrors(errors, name, ['not valid JSON']);
      }
    });
    parser.on('filesLimit', () =>
      addFieldErrors(errors, form.fileField, [`at most ${form.maxFiles} files in one request`]),
    );
    parser.on('error', (error: Error) => finish(notMultipart(error.message)));
    parser.on('close', () => {
      if (files.length === 0 && errors[form.fileField] === undefined) {
        addFieldErrors(errors, form.fileField, ['required: one or more file parts']);
      }
      const names = Object.keys(errors);
      if (names.length > 0) {
        finish(new ValidationError(`The form is not valid: check ${names.join(', ')}.`, errors));
        return;
      }
      finish(undefined, { fields, files });
    });

    req.on('data', touch);
    req.on('close', onClose);
    touch();
    req.pipe(parser);
  });
};

const totalTooLarge = (form: MultipartForm) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `The files are larger than the ${MiB(form.maxTotalBytes)} one request may carry in all.`,
  );

const notMultipart = (reason: string) =>
  new ValidationError(`The request body is not valid multipart/form-data: ${reason}.`, {
    body: ['not valid multipart/form-data'],
  });
