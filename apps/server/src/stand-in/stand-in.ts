import { isIP } from 'node:net';
import type { Config } from '../config.ts';
import { type StandInCredentials, standInCredentials } from './credentials.ts';

export type StandIn = { origin: string; credentials: StandInCredentials };

/**
 * The stand-in API runs only where the development issuer runs (never in production) and demo data is on. Its
 * origin is the address the server listens on as an IP literal, `http://127.0.0.1:PORT` for the default HOST: the
 * proxy's exemption names exactly that origin and `/dev/stand-in/`, and an IP literal never passes a resolver.
 */
export const standInOf = (
  config: Pick<Config, 'host' | 'demoData' | 'production'>,
  devIssuerRuns: boolean,
  port: number,
  secretsKey: string,
): StandIn | undefined => {
  if (!devIssuerRuns || !config.demoData || config.production) return undefined;
  const host = config.host;
  const literal =
    host === '0.0.0.0' || isIP(host) === 0
      ? '127.0.0.1'
      : host === '::'
        ? '[::1]'
        : isIP(host) === 6
          ? `[${host}]`
          : host;
  return { origin: `http://${literal}:${port}`, credentials: standInCredentials(secretsKey) };
};
