import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { ForbiddenError, malformedTextErrors, NotFoundError, ValidationError } from '@platform/core';
import { createSecretBox, findUnopenedSecrets, findUserStatus, openDatabase } from '@platform/store';
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadConfig } from './config.ts';
import { createProxy } from './create-proxy.ts';
import { metricsWithoutConnectors } from './metrics.ts';
import { writeProblem } from './proxy/write-problem.ts';
import { resolveVisibleEnvironment } from './standalone/resolve-environment.ts';
import { createBearerVerifier } from './standalone/verify-bearer.ts';

/**
 * The `connector-proxy` process: only the proxy route, `/api/ping` and `/metrics`, against the platform's
 * PostgreSQL. Replicas share tokens through the store, one fetching while the others wait (tokens/fetch-lease.ts).
 */
const USAGE = `Usage: connector-proxy

Runs the connector proxy as its own process against the platform's PostgreSQL. Configuration comes from the
environment: DATABASE_URL, SECRETS_KEY, AUTH_ISSUER (required); PORT, HOST, PUBLIC_URL, AUTH_AUDIENCE,
PROXY_ALLOW_PRIVATE_NETWORKS, PROXY_FETCH_TIMEOUT_MS, TOKEN_TIMEOUT_SECONDS, LOG_LEVEL (see packages/proxy/README.md).`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const configOrExit = (): ReturnType<typeof loadConfig> => {
  try {
    return loadConfig();
  } catch (error) {
    // One line that names what to fix, not a stack trace.
    process.stderr.write(`connector-proxy: ${(error as Error).message}\n`);
    process.exit(2);
  }
};
const config = configOrExit();
const log = pino({ level: config.LOG_LEVEL, name: 'connector-proxy' });
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: tmpdir() });
const secrets = createSecretBox(config.SECRETS_KEY);
// As the server does (docs/configuration.md): values sealed under a key SECRETS_KEY does not hold refuse the start.
const unopened = await findUnopenedSecrets(database.db, secrets).catch((error: unknown) => {
  process.stderr.write(`connector-proxy: the database cannot be read: ${(error as Error).message}\n`);
  process.exit(1);
});
if (unopened) {
  process.stderr.write(`connector-proxy: ${unopened.message}\n`);
  process.exit(2);
}
const registry = new Registry();
collectDefaultMetrics({ register: registry });
const verify = await createBearerVerifier(config.AUTH_ISSUER, config.AUTH_AUDIENCE).catch(
  (error: unknown) => {
    // The issuer is the one thing a start reaches out to: one line naming it, not a stack trace.
    process.stderr.write(`connector-proxy: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
const proxy = createProxy({
  database,
  secrets,
  log,
  metricsRegistry: registry,
  allowPrivateNetworks: config.PROXY_ALLOW_PRIVATE_NETWORKS,
  publicUrl: config.PUBLIC_URL,
  fetchTimeoutMs: config.PROXY_FETCH_TIMEOUT_MS,
  tokenTimeoutMs: config.TOKEN_TIMEOUT_SECONDS * 1000,
});

const proxyPath = /^\/grafx\/api\/v1\/environment\/([^/]+)\/connectors\/([^/]+)\/proxy\/?$/;

/** A valid incoming W3C traceparent is continued; otherwise a new trace starts. */
const traceIdOf = (traceparent: string | string[] | undefined): string => {
  const match =
    typeof traceparent === 'string'
      ? traceparent.match(/^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/)
      : null;
  return match?.[1] && !/^0+$/.test(match[1]) ? match[1] : randomBytes(16).toString('hex');
};

/** The path's two parameters, decoded as the platform server decodes them: 400 for what no name can hold. */
const pathParameters = (rawEnvironment: string, rawConnectorId: string) => {
  let environment: string;
  let connectorId: string;
  try {
    environment = decodeURIComponent(rawEnvironment);
    connectorId = decodeURIComponent(rawConnectorId);
  } catch {
    throw new ValidationError('The path is not valid percent-encoding.', {
      path: ['malformed percent-encoding'],
    });
  }
  const malformed = malformedTextErrors({ environment, connectorId });
  if (Object.keys(malformed).length > 0) {
    throw new ValidationError('U+0000 and unpaired surrogates are not accepted in the path.', malformed);
  }
  return { environment, connectorId };
};

const server = createServer(async (req, res) => {
  const traceId = traceIdOf(req.headers.traceparent);
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  try {
    if (path === '/api/ping' && req.method === 'GET') {
      res.writeHead(200).end();
      return;
    }
    if (path === '/metrics' && req.method === 'GET') {
      // Operators only, and without connector ids (docs/authentication.md), as on the platform server.
      const caller = await verify(req.headers.authorization);
      if (!caller.roles.has('platform:admin') && !caller.roles.has('platform:metrics'))
        throw new ForbiddenError("/metrics needs the token role 'platform:admin' or 'platform:metrics'.");
      const text = await metricsWithoutConnectors(registry);
      res.writeHead(200, { 'content-type': registry.contentType }).end(text);
      return;
    }
    const match = path.match(proxyPath);
    if (!match?.[1] || !match[2]) throw new NotFoundError(`No route for ${path.slice(0, 200)}.`);
    const caller = await verify(req.headers.authorization);
    if (!caller.roles.has('platform:read'))
      throw new ForbiddenError('The proxy needs the platform:read token role.');
    // A disabled user is refused on every route that needs a token (docs/authentication.md), as on the server.
    if ((await findUserStatus(database.db, caller.userId)) === 'Disabled')
      throw new ForbiddenError(
        'This user is disabled: an administrator of the platform can enable them again.',
      );
    const { environment, connectorId } = pathParameters(match[1], match[2]);
    const environmentId = await resolveVisibleEnvironment(database, environment, caller);
    await proxy.handle(req, res, { environmentId, connectorId, caller, traceId });
  } catch (error) {
    if (!req.readableEnded) req.resume();
    if ((error as { code?: string }).code === 'UNAUTHENTICATED') {
      res.setHeader(
        'www-authenticate',
        req.headers.authorization ? 'Bearer error="invalid_token"' : 'Bearer',
      );
    }
    writeProblem(res, error, traceId, log);
  }
});

server.listen(config.PORT, config.HOST, () => {
  log.info({ url: `http://${config.HOST}:${config.PORT}` }, 'connector proxy listening');
});

const shutdown = () => {
  log.info('shutting down');
  server.close(async () => {
    await proxy.close();
    await database.close();
    process.exit(0);
  });
  server.closeIdleConnections();
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
