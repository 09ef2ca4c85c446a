import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Streams the target's body to the caller. Not `stream.pipeline`: it allocates an AbortController per call
 * and aborts it when done (a DOMException with a captured stack), about a tenth of the CPU a small proxied
 * request costs. `pipe` does the flow control; the two ways a stream can end early are handled here.
 */
export const pipeResponse = (
  body: Readable,
  res: ServerResponse,
  endedEarly: (reason: string) => void,
): void => {
  let reported = false;
  const report = (reason: string) => {
    if (reported) return;
    reported = true;
    endedEarly(reason);
  };
  body.on('error', (error) => {
    if (!res.destroyed) res.destroy();
    report(error.message);
  });
  res.on('close', () => {
    if (body.readableEnded) return;
    // The caller went away: stop reading from the target (undici releases or drops the connection).
    body.destroy();
    report('the caller closed the connection');
  });
  body.pipe(res);
};
