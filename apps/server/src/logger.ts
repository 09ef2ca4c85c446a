import pino, { type DestinationStream, type Logger } from 'pino';

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
  return pino(options);
};
