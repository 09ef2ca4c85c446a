import { isIP } from 'node:net';
import type { DevIssuer } from '@platform/api/dev-issuer';
import type { Config } from '../config.ts';
import { deriveWithKey, type StandInCredentials, standInCredentials } from './credentials.ts';

export type StandIn = { origin: string; credentials: StandInCredentials };

/**
 * The stand-in API runs only where the development issuer runs (never in production) and demo data is on. Its
 * origin is the address the server listens on as an IP literal, `http://127.0.0.1:PORT` for the default HOST: the
 * proxy's exemption names exactly that origin and `/dev/stand-in/`, and an IP literal never passes a resolver.
 */
export const standInOf = (
  config: Pick<Config, 'host' | 'demoData' | 'production'>,
  devIssuer: Pick<DevIssuer, 'deriveSecret'> | undefined,
  port: number,
  /** The keys of SECRETS_KEY: earlier versions derived the stand-in's secrets from the sealing one. */
  secretsKeys: readonly string[],
): StandIn | undefined => {
  if (!devIssuer || !config.demoData || config.production) return undefined;
  const host = config.host;
  const literal =
    host === '0.0.0.0' || isIP(host) === 0
      ? '127.0.0.1'
      : host === '::'
        ? '[::1]'
        : isIP(host) === 6
          ? `[${host}]`
          : host;
  return {
    origin: `http://${literal}:${port}`,
    credentials: standInCredentials(devIssuer.deriveSecret, secretsKeys.map(deriveWithKey)),
  };
};
