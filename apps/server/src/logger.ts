import pino, { type DestinationStream, type Logger } from 'pino';
import { batchLines } from './line-batcher.ts';

/**
 * JSON lines by default; pino-pretty when a person watches a terminal. Redaction is a second line of defence: no
 * code path logs headers or secrets in the first place.
 */
export const createLogger = (level: string, destination?: DestinationStream): Logger => {
  const options = {
    level,
    base: { service: 'platform-server' },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.authorization',
        '*.clientSecret',
        '*.password',
        '*.privateKey',
        '*.access_token',
        '*.refresh_token',
        '*.value',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname,service' } },
    });
  }
  return pino(options, logDestination(1));
};

/** Characters of log lines gathered into one write: half a pipe's default buffer (64 KiB). */
export const LOG_BATCH_CHARS = 32 * 1024;

/**
 * Asynchronous: a slow reader of the output (a full pipe) must not stall the event loop. Lines are gathered into
 * writes of `LOG_BATCH_CHARS`, the rest going out within 100 ms (line-batcher.ts): each write is handed to a thread,
 * and that hand-over, not the bytes, is what a write costs. One write per line cost more than the line itself; one
 * per 4 KiB (a dozen proxied requests) still cost 8 % of a proxied request's CPU, one per 32 KiB less than 1 %.
 * pino writes what is left when the process exits. `flush` calls back once what was logged before it is written
 * (the start banner waits for it).
 */
export const logDestination = (fd: number) =>
  // minLength 1 writes whatever it is handed at once, as 0 would, but keeps `flush` waiting for the write in flight:
  // with 0, SonicBoom calls back at once.
  batchLines(pino.destination({ dest: fd, sync: false, minLength: 1 }), {
    size: LOG_BATCH_CHARS,
    delayMs: 100,
  });
