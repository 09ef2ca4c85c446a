import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * An answer given before the request's body was read (a refused token, a body too large to take) ends the
 * connection: `Connection: close`, and the socket is destroyed once the answer is flushed, so the rest of the
 * body is never read (docs/errors.md).
 */
export const closeIfBodyUnread = (req: IncomingMessage, res: ServerResponse): void => {
  if (req.complete || res.headersSent) return;
  res.setHeader('Connection', 'close');
  res.once('finish', () => req.socket.destroy());
};
