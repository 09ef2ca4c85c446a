import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  createApp,
  createDevIssuer,
  createReadCache,
  createTokenVerifier,
  type DevIssuer,
  DOCUMENT_PATHS,
  forwardedChainOf,
  mountDocuments,
  operations,
  type TokenVerifier,
  watchReplicaCount,
} from '@platform/api';
import { UnauthenticatedError } from '@platform/core';
import { createProxy, metricsWithoutConnectors } from '@platform/proxy';
import { defaultLimits } from '@platform/runtime';
import {
  createConnectorActivityLog,
  createFingerprint,
  createSecretBox,
  type Database,
  findUnopenedSecrets,
  loadOrCreateSecretsKey,
  migrate,
  openDatabase,
  parseSecretsKeys,
  repointDemoConnectors,
  sealClearAuthObjects,
  seedDemoData,
} from '@platform/store';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { startAuditRetention } from './audit-retention.ts';
import { type Config, ConfigError, publicUrlOf } from './config.ts';
import { guardConnections, trustedProxies } from './connection-guard.ts';
import { loadConsole } from './console-route.ts';
import { continueOnRead } from './continue-on-read.ts';
import { sharedDevKeyStore } from './dev-key-store.ts';
import { findHeaderFault } from './header-fault.ts';
import { listenImportSocket } from './import-socket.ts';
import { listenOn } from './listen-on.ts';
import { listenMetrics } from './metrics-listener.ts';
import { answerRaw } from './raw-answer.ts';
import { ResponsesInFlight } from './responses-in-flight.ts';
import { createRuntimePool } from './runtime/runtime-pool.ts';
import { registerSealedValuesGauge } from './sealed-values-gauge.ts';
import { serverVersion } from './server-version.ts';
import { publishDemoConnectors } from './stand-in/demo-connectors.ts';
import { standInOf } from './stand-in/stand-in.ts';
import { standInApi } from './stand-in/stand-in-api.ts';

/**
 * Answers kept by count and by size. Each caller keeps two small ones (its user status, its access to an
 * environment), so the count follows the callers: at 2,000 entries, a thousand callers taking turns (Studio's
 * editors) evicted one another's before each came back, and every call read the database again. The size bounds
 * the memory whatever the answers hold (a connector's script, a subscription of 50 environments).
 */
const READ_CACHE_ENTRIES = 100_000;
const READ_CACHE_CHARS = 64 * 1024 * 1024;

/** How long a shutdown waits for the requests in flight before cutting what is left (docs/deployment.md). */
const SHUTDOWN_GRACE_MS = 10_000;

export type Platform = {
  readonly url: string;
  readonly server: Server;
  readonly database: Database;
  readonly devIssuer: DevIssuer | undefined;
  readonly demoLoaded: boolean;
  /** The METRICS_PORT listener's address, when one runs. */
  readonly metricsUrl: string | undefined;
  /** Milliseconds each phase of the start took (docs/configuration.md, "Start-up"). */
  readonly phases: StartPhases;
  close(): Promise<void>;
};

export type StartPhases = Record<
  'database' | 'migrations' | 'demoData' | 'secretsKey' | 'changeWatch' | 'listen' | 'issuerKey' | 'announce',
  number
>;

/**
 * Composes the platform: database (migrated, demo data when asked), secrets, token verification, the REST + tRPC
 * application and the connector proxy, on one HTTP server.
 *
 * Ready means ready: everything that answers requests is prepared before the port opens. Only what depends on
 * the address the port got (PORT=0) is made once it is bound, within milliseconds; requests that arrive in
 * that moment wait and are then answered, after `announce` (server.json and the banner), never before.
 */
export const startPlatform = async (
  config: Config,
  log: Logger,
  /** An already opened database (tests); otherwise the configured one is opened. */
  opened?: Database,
  /** Runs once the platform answers, before the first request is handed to it. */
  announce?: (platform: Platform) => Promise<void>,
): Promise<Platform> => {
  // Fail closed before anything opens: no issuer configured and the development issuer not asked for.
  if (config.devIssuer === 'refused') throw new ConfigError(config.devIssuerRefusal ?? 'Set AUTH_ISSUER.');
  const phases = {} as StartPhases;
  const timed = async <T>(phase: keyof StartPhases, work: () => Promise<T>): Promise<T> => {
    const begin = performance.now();
    try {
      return await work();
    } finally {
      phases[phase] = Math.round(performance.now() - begin);
    }
  };
  // The secrets key is read while the database opens: neither waits for the other.
  const secretsKey = config.secretsKey
    ? Promise.resolve(config.secretsKey)
    : timed('secretsKey', () => loadOrCreateSecretsKey(config.dataDir));
  secretsKey.catch(() => {});
  const database =
    opened ??
    (await timed('database', () =>
      openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        timeouts: config.databaseTimeouts,
      }),
    ));
  phases.database ??= 0;
  const server = createServer(connectionSettings(config));
  server.maxConnections = config.maxConnections;
  const guard = {
    idleTimeoutMs: config.idleTimeoutMs,
    perClient: config.maxConnectionsPerClient,
    trusted: trustedProxies(config.trustedProxies),
  };
  guardConnections(server, guard);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    await timed('migrations', () => migrate(database));
    const demoLoaded = await timed('demoData', async () =>
      config.demoData ? (await seedDemoData(database, new Date())) !== undefined : false,
    );
    const key = await secretsKey;
    const secrets = createSecretBox(key);
    phases.secretsKey ??= 0;
    // Found at start, not at first use: a replica that cannot open every stored value never serves
    // (docs/configuration.md, "Secrets keys"); the message names the key ids and their counts, never a value.
    const unopened = await findUnopenedSecrets(database.db, secrets);
    if (unopened) throw new ConfigError(unopened.message);
    const sealed = await sealClearAuthObjects(database.db, secrets);
    if (sealed > 0) log.info({ rows: sealed }, 'authorization fields stored in clear before are sealed now');

    const stopRetention = startAuditRetention(database, config.auditRetentionDays, log);
    cleanups.push(async () => stopRetention());
    const metrics = new Registry();
    registerSealedValuesGauge(metrics, database, secrets);
    // Reads answered from memory until a write: this process's own (the transports drop the cache after each
    // non-GET operation) or anyone's (the database's change notifications). Not while notifications could be missed.
    let live = () => false;
    const reads = createReadCache({
      max: READ_CACHE_ENTRIES,
      maxChars: READ_CACHE_CHARS,
      live: () => live(),
    });
    // The proxy's connector configurations are kept until a change too; it is composed once the port is bound.
    let configurationChanged = () => {};
    const changes = await timed('changeWatch', () =>
      database.watchChanges(() => {
        reads.invalidate();
        configurationChanged();
      }),
    );
    cleanups.push(() => changes.stop());
    live = () => changes.live;
    if (!config.databaseUrl) {
      cleanups.push(
        await listenImportSocket(config.dataDir, database, secrets, log, () => {
          reads.invalidate();
          configurationChanged();
        }),
      );
    }

    server.on('clientError', answerClientError);
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      continueOnRead(req, res);
      server.emit('request', req, res);
    });
    const held: [IncomingMessage, ServerResponse][] = [];
    const inFlight = new ResponsesInFlight();
    let draining = false;
    const hold = (req: IncomingMessage, res: ServerResponse) => void held.push([req, res]);
    server.on('request', hold);
    await timed('listen', () => listenOn(server, config.port, config.host, 'PORT'));
    const url = publicUrlOf(config, (server.address() as AddressInfo).port);

    let devIssuer: DevIssuer | undefined;
    let verifier: TokenVerifier;
    if (config.authIssuer) {
      verifier = createTokenVerifier({ issuer: config.authIssuer, audience: config.authAudience });
      phases.issuerKey = 0;
    } else if (config.devIssuer === 'off') {
      verifier = refuseEveryToken(url);
      phases.issuerKey = 0;
    } else {
      const issuer = await timed('issuerKey', () =>
        createDevIssuer({
          dataDir: config.dataDir,
          issuer: url,
          audience: config.authAudience,
          // PostgreSQL: one key for every replica, sealed with SECRETS_KEY (docs/deployment.md).
          keyStore: config.databaseUrl ? sharedDevKeyStore(database.db, secrets) : undefined,
        }),
      );
      devIssuer = issuer;
      verifier = createTokenVerifier({
        issuer: issuer.issuer,
        audience: config.authAudience,
        keys: issuer.keys,
      });
    }

    // Development only: the stand-in API the demo connectors call, and the proxy's exemption for exactly it.
    const port = (server.address() as AddressInfo).port;
    // The stand-in's credentials follow the development issuer's key, which no secrets-key rotation changes.
    const standIn = standInOf(config, devIssuer, port, keyTexts(key));
    if (standIn && demoLoaded) {
      const published = await publishDemoConnectors({
        database,
        secrets,
        credentials: standIn.credentials,
        origin: standIn.origin,
        now: new Date(),
      });
      log.info(
        { connectors: published, standIn: `${standIn.origin}/dev/stand-in` },
        'demo connectors published',
      );
    } else if (standIn) {
      const moved = await repointDemoConnectors(database, standIn.origin);
      if (moved > 0)
        log.info(
          { connectors: moved, standIn: `${standIn.origin}/dev/stand-in` },
          'demo connectors repointed',
        );
    }
    const proxy = createProxy({
      database,
      secrets,
      log,
      metricsRegistry: metrics,
      allowPrivateNetworks: config.proxyAllowPrivateNetworks,
      publicUrl: url,
      tokenTimeoutMs: config.tokenTimeoutMs,
      exchangeTimeoutMs: config.proxyExchangeTimeoutMs,
      changesWatched: () => changes.live,
      standInOrigin: standIn?.origin,
      forwardedChain: forwardedChainOf(config.trustedProxies),
    });
    configurationChanged = proxy.configurationChanged;
    cleanups.unshift(() => proxy.close());
    const connectorActivity = createConnectorActivityLog(database.db, {
      onError: (error) => log.error({ err: error }, 'connector activity could not be written'),
      reclaimSpace: database.kind === 'pglite',
    });
    // Runs after the runtime's close below (cleanups run first to last): no invocation records after this flush.
    cleanups.unshift(() => connectorActivity.flush());
    const connectorRuntime = createRuntimePool({
      limits: { ...defaultLimits, ...config.runtime },
      sessions: config.runtimeSessions,
      fetchFor: (caller, usage) => proxy.fetchFor(caller, usage),
      log,
    });
    cleanups.unshift(() => connectorRuntime.close());
    const deps = {
      idleTimeoutMs: config.idleTimeoutMs,
      database,
      reads,
      secrets,
      fingerprint: createFingerprint(parseSecretsKeys(key)[0]!.bytes),
      auditing: config.auditing,
      verifier,
      log,
      serverVersion,
      publicUrl: url,
      authorizationCode: proxy.tokens,
      // The environment API's writers drop a changed connector from the proxy's configuration cache, so the very
      // next proxied call of this process sees the change (other replicas once the change notification arrives).
      connectorChanged: proxy.invalidateConnector,
      connectorDeleted: proxy.forgetConnector,
      allowPrivateNetworks: config.proxyAllowPrivateNetworks,
      draining: () => draining,
      connectorRuntime,
      connectorActivity,
      connectorSecrets: proxy.secretsFor,
    };
    const mountConsole = await loadConsole({
      issuer: devIssuer?.issuer ?? verifier.issuer,
      clientId: config.consoleClientId,
    });
    // The rate limit is platform-wide: each replica takes its share by the live replica count (always 1 embedded).
    const replicas = await watchReplicaCount(database);
    cleanups.unshift(() => replicas.stop());
    const app = createApp({
      deps,
      operations,
      metrics,
      rateLimitPerSecond: config.rateLimitPerSecond,
      replicas: replicas.current,
      trustedProxies: config.trustedProxies,
      proxy: proxy.handle,
      extraGetPaths: DOCUMENT_PATHS,
      // The front door's one 'close' listener per response ends its time in flight too.
      responseClosed: (res) => {
        inFlight.delete(res);
        // Its connection is idle now: while shutting down, nothing more is to come on it.
        if (draining) setImmediate(() => server.closeIdleConnections());
      },
      mountExtra: (app) => {
        mountDocuments(app, {
          deps,
          operations,
          metrics,
          devIssuer,
          consoleClientId: config.consoleClientId,
          serverUrl: url,
          tokenMetrics: () => metricsWithoutConnectors(metrics),
        });
        if (standIn) app.use('/dev/stand-in', standInApi(standIn.credentials));
        mountConsole(app);
      },
    });
    const metricsListener =
      config.metricsPort === undefined
        ? undefined
        : await listenMetrics(config.host, config.metricsPort, metrics, {
            ...guard,
            ...connectionSettings(config),
          });
    if (metricsListener) cleanups.push(() => metricsListener.close());
    const metricsUrl =
      metricsListener && publicUrlOf({ ...config, publicUrl: undefined }, metricsListener.port);

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        // Stop accepting and answer the requests in flight (readiness says 503 meanwhile), each with
        // `Connection: close`, closing every connection as it falls idle; then the database (docs/deployment.md).
        draining = true;
        for (const res of inFlight.values()) if (!res.headersSent) res.setHeader('Connection', 'close');
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closed;
        clearTimeout(deadline);
        for (const cleanup of cleanups) await cleanup();
        // A database handed in belongs to the caller, who closes it.
        if (!opened) await database.close();
      })();
      return closing;
    };
    const platform: Platform = { url, server, database, devIssuer, demoLoaded, metricsUrl, phases, close };
    await timed('announce', async () => announce?.(platform));
    const serve = (req: IncomingMessage, res: ServerResponse) => {
      inFlight.add(res);
      if (draining) res.setHeader('Connection', 'close');
      app(req, res);
    };
    server.off('request', hold);
    server.on('request', serve);
    for (const [req, res] of held.splice(0)) serve(req, res);
    return platform;
  } catch (error) {
    server.close(() => {});
    server.closeAllConnections();
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    if (!opened) await database.close();
    throw error;
  }
};

/** The sealing (first) key's base64 text: the whole of SECRETS_KEY when it is one bare key, as before key ids. */
const keyTexts = (secretsKey: string): string[] => parseSecretsKeys(secretsKey).map((k) => k.base64);

/** DEV_ISSUER=false without AUTH_ISSUER: no issuer, so every protected route answers 401. */
const refuseEveryToken = (issuer: string): TokenVerifier => ({
  issuer,
  known: () => undefined,
  verify: async (authorization) => {
    throw new UnauthenticatedError(
      'No token is accepted: this server has no issuer (AUTH_ISSUER is unset and DEV_ISSUER=false).',
      authorization !== undefined,
    );
  },
});

/**
 * Connection hygiene (docs/configuration.md). A new connection's head and a request body's silence are cut by
 * connection-guard.ts, a timer per connection; Node's own headers deadline bounds the head of every later request on
 * a keep-alive connection (from its first byte), checked by Node's sweep every second. A whole request must arrive
 * within the request timeout. Keep-alive between requests is 65 s, above common load balancers' 60 s, so that a
 * balancer never sends on a connection the server is closing.
 */
export const connectionSettings = (config: Pick<Config, 'idleTimeoutMs' | 'requestTimeoutMs'>) => ({
  keepAliveTimeout: 65_000,
  headersTimeout: Math.min(config.requestTimeoutMs, config.idleTimeoutMs + 5000),
  requestTimeout: config.requestTimeoutMs,
  connectionsCheckingInterval: 1000,
});

/**
 * Requests Node's HTTP parser rejects before any route sees them (malformed request line or framing, headers over
 * the size limit, header timeout) are answered like every other error (docs/errors.md): a ProblemDetails body
 * with a traceId, served as application/json, then the connection is closed.
 */
const answerClientError = (error: Error & { code?: string }, socket: Socket) => {
  // Answer only when no response is under way on the connection (a keep-alive connection between two requests
  // is fine), then drop it.
  const responding = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || responding) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'The request headers are larger than the server accepts; send fewer or shorter headers.'
      : status === 408
        ? 'The request headers did not arrive in time; send the request again.'
        : 'The request is not valid HTTP/1.1; check the request line, headers and body framing.';
  const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
  const head = rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
  const fault = status === 400 ? findHeaderFault(rawPacket) : undefined;
  if (fault) {
    const what = fault.character === 'U+0000' ? 'U+0000 (NUL)' : `the control character ${fault.character}`;
    answerRaw(
      socket,
      400,
      `The header ${fault.name} contains ${what}, which no header value may hold; remove it.`,
      {
        head,
        errors: { [fault.name]: [`contains ${what}`] },
      },
    );
    return;
  }
  answerRaw(socket, status, detail, { head });
};
