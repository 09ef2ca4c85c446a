import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a refused client is given to read its answer before the connection is dropped. */
const LINGER_MS = 2000;

/**
 * An answer given before the request's body was read (a refused token, a body too large to take) ends the
 * connection (docs/errors.md): `Connection: close`, and once the answer is flushed the server stops reading, sends
 * its FIN and drops the connection shortly after, so the rest of the body is never read. Node would destroy the
 * socket at once, and a reset on a socket with unread data can make the client's system discard the answer.
 */
export const closeIfBodyUnread = (req: IncomingMessage, res: ServerResponse): void => {
  // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): nothing is left unread, and its
  // keep-alive connection stays (a client refused 401 or 429 on a GET would otherwise reconnect for every retry).
  if (req.complete || res.headersSent || !announcesBody(req)) return;
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.pause();
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
};

/** Whether the head announces a body (RFC 9112 §6.3): a Transfer-Encoding, or a Content-Length other than 0. */
export const announcesBody = (req: IncomingMessage): boolean => {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
};
