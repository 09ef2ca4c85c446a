import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `Expect: 100-continue` (RFC 9110 §10.1.1): Node would send `100 Continue` before any handler ran, inviting the
 * body of a request that is then refused from its headers alone (401, 403, 413: docs/errors.md). Here the 100 goes
 * out when something first reads the body; a request answered before that gets its final status instead, and its
 * body is never sent.
 */
export const continueOnRead = (req: IncomingMessage, res: ServerResponse): void => {
  const read = req._read;
  req._read = function (this: IncomingMessage, size: number) {
    req._read = read;
    if (!res.headersSent) res.writeContinue();
    read.call(this, size);
  };
};
