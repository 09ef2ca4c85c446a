import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { problem } from '@platform/core';

/**
 * An answer written straight on a socket, for what no route sees (docs/errors.md): a ProblemDetails body with a
 * traceId, served as application/json, `Connection: close`, then the connection ends. The socket stops reading, so
 * whatever else the client sends is never parsed, and it is dropped shortly after the answer is flushed.
 */
export const answerRaw = (
  socket: Socket,
  status: number,
  detail: string,
  options: { head?: boolean; headers?: Record<string, string>; errors?: Record<string, string[]> } = {},
): void => {
  const body = JSON.stringify({
    ...problem({ status, detail, traceId: randomBytes(16).toString('hex'), errors: options.errors }),
    title: STATUS_CODES[status],
  });
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.pause();
  // A HEAD request gets the head alone: a body there would corrupt the client's framing.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n${extra}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${options.head ? '' : body}`,
  );
  setTimeout(() => socket.destroy(), 2000).unref();
};
