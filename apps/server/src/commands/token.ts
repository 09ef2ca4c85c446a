// The issuer alone, not the API's index: minting a token loads no HTTP stack, and the database only where the key is.
import { createDevIssuer, type DevIssuer } from '@platform/api/dev-issuer';
import { closestKey, TokenRole } from '@platform/core';
import { type Config, loadConfig, publicUrlOf } from '../config.ts';
import { readServerFile } from '../server-file.ts';
import { UsageError } from './usage-error.ts';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `90`, `30s`, `15m`, `1h`, `7d` → seconds. */
export const parseTtl = (text: string): number => {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (UNITS[match[2] || 's'] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0 || seconds > 366 * 86_400) {
    throw new UsageError(`--ttl ${text} is not a duration: use for example 30m, 1h or 7d (at most 366d).`);
  }
  return seconds;
};

/**
 * The issuer the server runs: its key in DATA_DIR, or with DATABASE_URL in the database (sealed with SECRETS_KEY),
 * where every replica reads it; a key of DATA_DIR would sign tokens no server verifies. Also the runtime benches'
 * minter: each of their thousand users gets a token of its own, as this command would print it.
 */
export const serversIssuer = async (config: Config, issuer: string): Promise<DevIssuer> => {
  const options = { dataDir: config.dataDir, issuer, audience: config.authAudience };
  if (!config.databaseUrl) return createDevIssuer(options);
  const [{ createSecretBox, openDatabase }, { sharedDevKeyStore }] = await Promise.all([
    import('@platform/store'),
    import('../dev-key-store.ts'),
  ]);
  if (!config.secretsKey)
    throw new UsageError('SECRETS_KEY is required with DATABASE_URL: the key is sealed with it.');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 1,
  });
  try {
    return await createDevIssuer({
      ...options,
      keyStore: sharedDevKeyStore(database.db, createSecretBox(config.secretsKey)),
    });
  } catch (error) {
    // undefined_table, as PostgreSQL reports it under drizzle's wrapping error.
    if ((error as { cause?: { code?: string } }).cause?.code === '42P01') {
      throw new UsageError(
        'The database has no platform tables yet: start the server or run platform-server migrate first.',
      );
    }
    throw error;
  } finally {
    await database.close();
  }
};

/**
 * A role the platform does not know is minted all the same (a token may carry an identity provider's other roles,
 * and a test may want one that grants nothing), but said on stderr: a misspelt role would otherwise show only as a
 * 403 later.
 */
const warnOfUnknownRoles = (roles: readonly string[]): void => {
  const known: readonly string[] = TokenRole.options;
  for (const role of roles) {
    if (known.includes(role)) continue;
    const closest = closestKey(role, known);
    process.stderr.write(
      `warning: --roles ${role} is no role of the platform and grants nothing${closest ? ` (did you mean ${closest}?)` : ''}; the roles are ${known.join(', ')}.\n`,
    );
  }
};

/** `platform-server token --sub ID [--roles a,b] [--ttl 1h]`: a token of the development issuer. */
export const token = async (options: { sub?: string; roles?: string; ttl?: string }): Promise<void> => {
  if (!options.sub)
    throw new UsageError('--sub is required: the user id the token is for, e.g. --sub "auth0|alice".');
  const config = loadConfig();
  if (config.production)
    throw new UsageError('Tokens are not minted in production: get them from AUTH_ISSUER.');
  if (config.authIssuer) {
    throw new UsageError(
      `AUTH_ISSUER is set: the server only accepts tokens of ${config.authIssuer}; get one there.`,
    );
  }
  if (config.devIssuer === 'refused') throw new UsageError(config.devIssuerRefusal ?? 'Set AUTH_ISSUER.');
  if (config.devIssuer === 'off') {
    throw new UsageError(
      'DEV_ISSUER=false: the development issuer is off, so no token it mints is accepted.',
    );
  }
  const roles = (options.roles ?? 'platform:read,platform:write').split(/[,\s]+/).filter((r) => r !== '');
  const ttlSeconds = parseTtl(options.ttl ?? '1h');
  warnOfUnknownRoles(roles);
  // The issuer is the server's public URL: take the running server's when there is one (PORT may differ).
  const running = await readServerFile(config.dataDir);
  const issuer = running?.url ?? publicUrlOf(config, config.port);
  const devIssuer = await serversIssuer(config, issuer);
  process.stdout.write(`${await devIssuer.mint({ sub: options.sub, roles, ttlSeconds })}\n`);
};
