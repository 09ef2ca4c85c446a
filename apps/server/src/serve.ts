import cluster from 'node:cluster';
import { DEMO_OWNER_ID } from '@platform/store';
import type { WorkerReady } from './cluster.ts';
import type { Config } from './config.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { createLogger } from './logger.ts';
import { type Platform, startPlatform } from './platform.ts';
import { removeServerFile, writeServerFile } from './server-file.ts';

/** Serves `config` until SIGTERM/SIGINT, then shuts down gracefully (`platform-server start`, commands/start.ts). */
export const serve = async (config: Config): Promise<void> => {
  // Since the process started: Node itself and loading the program's modules.
  const modules = Math.round(performance.now());
  const log = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) {
    return (await import('./cluster.ts')).runPrimary(config, log);
  }
  // PostgreSQL serves many replicas; an embedded database belongs to this process alone.
  const lock = config.databaseUrl
    ? undefined
    : await acquireDataDirLock(config.dataDir, 'start', (line) => process.stderr.write(`${line}\n`));
  let platform: Platform;
  try {
    platform = await startPlatform(config, log, undefined, async (platform) => {
      if (cluster.isWorker) {
        // The primary announces once every worker answers (cluster.ts).
        const ready: WorkerReady = {
          type: 'ready',
          url: platform.url,
          banner: await banner(config, platform),
        };
        process.send?.(ready);
        return;
      }
      await lock?.announce(platform.url);
      await writeServerFile(config.dataDir, {
        pid: process.pid,
        url: platform.url,
        embedded: !config.databaseUrl,
      });
      const text = await banner(config, platform);
      // Log lines are written asynchronously (logger.ts): the ones before the banner land before it.
      await new Promise<void>((resolve) => log.flush(() => resolve()));
      process.stdout.write(text);
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  log.info(
    { url: platform.url, phases: { modules, ...platform.phases }, readyMs: Math.round(performance.now()) },
    'started',
  );

  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    try {
      await platform.close();
    } finally {
      // The folder is free for the next owner even when something failed on the way out.
      await removeServerFile(config.dataDir, process.pid);
      await lock?.release();
    }
    log.info({ signal }, 'stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
};

/** Where to look, and a token of the development issuer when it runs. */
const banner = async (config: Config, platform: Platform): Promise<string> => {
  const lines = [
    '',
    `  Console          ${platform.url}/console`,
    `  Platform API     ${platform.url}/api/v1/info`,
    `  API reference    ${platform.url}/docs`,
    `  OpenAPI          ${platform.url}/openapi.json`,
    `  tRPC             ${platform.url}/trpc`,
    `  Metrics          ${platform.url}/metrics`,
    // METRICS_PORT may be 0 (a free port): the banner is where its address is told.
    ...(platform.metricsUrl
      ? [`  Metrics, open    ${platform.metricsUrl}/metrics (no token; METRICS_PORT)`]
      : []),
    `  Database         ${config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`}${platform.demoLoaded ? ' (demo data loaded)' : ''}`,
  ];
  if (!config.authIssuer && config.devIssuer === 'off') {
    lines.push(
      '',
      '  No issuer: AUTH_ISSUER is unset and DEV_ISSUER=false, so every route that needs a token answers 401.',
    );
  }
  if (platform.devIssuer) {
    const token = await platform.devIssuer.mint({
      sub: DEMO_OWNER_ID,
      roles: ['platform:read', 'platform:write'],
      ttlSeconds: 12 * 3600,
    });
    lines.push(
      '',
      '  !! DEVELOPMENT ISSUER ON: no passwords. Anyone who reaches this port can sign in as any user listed in the',
      `  !! database (${platform.url}/oauth/authorize). Never expose it; set AUTH_ISSUER for a real deployment.`,
      '',
      `  Development issuer: a bearer token for the demo owner (${DEMO_OWNER_ID}), valid 12 hours:`,
      '',
      `  export TOKEN=${token}`,
      `  curl -H "Authorization: Bearer $TOKEN" ${platform.url}/api/v1/subscriptions`,
      '',
      '  More tokens: npx platform-server token --sub <user id> --roles platform:read,platform:write',
    );
  }
  return `${lines.join('\n')}\n\n`;
};
