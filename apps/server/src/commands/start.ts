import { DEMO_OWNER_ID } from '@platform/store';
import { type Config, loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { startPlatform } from '../platform.ts';
import { removeServerFile, writeServerFile } from '../server-file.ts';

/** `platform-server start`: serve until SIGTERM/SIGINT, then shut down gracefully. */
export const start = async (): Promise<void> => {
  const config: Config = loadConfig();
  const log = createLogger(config.logLevel);
  const platform = await startPlatform(config, log);
  await writeServerFile(config.dataDir, {
    pid: process.pid,
    url: platform.url,
    embedded: !config.databaseUrl,
  });

  const lines = [
    '',
    `  Console          ${platform.url}/console`,
    `  Platform API     ${platform.url}/api/v1/info`,
    `  API reference    ${platform.url}/docs`,
    `  OpenAPI          ${platform.url}/openapi.json`,
    `  tRPC             ${platform.url}/trpc`,
    `  Metrics          ${platform.url}/metrics`,
    `  Database         ${config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`}${platform.demoLoaded ? ' (demo data loaded)' : ''}`,
  ];
  if (platform.devIssuer) {
    const token = await platform.devIssuer.mint({
      sub: DEMO_OWNER_ID,
      roles: ['platform:read', 'platform:write'],
      ttlSeconds: 12 * 3600,
    });
    lines.push(
      '',
      `  Development issuer: a bearer token for the demo owner (${DEMO_OWNER_ID}), valid 12 hours:`,
      '',
      `  export TOKEN=${token}`,
      `  curl -H "Authorization: Bearer $TOKEN" ${platform.url}/api/v1/subscriptions`,
      '',
      '  More tokens: npx platform-server token --sub <user id> --roles platform:read,platform:write',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await platform.close();
    await removeServerFile(config.dataDir, process.pid);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
};
