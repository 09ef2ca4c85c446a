import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { ForbiddenError, UnauthenticatedError } from '@platform/core';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import type { DevIssuer } from '../auth/dev-issuer.ts';
import { logUnexpectedError } from '../observability/unexpected-error.ts';
import { openApiDocument, withServers } from '../openapi/document.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { admitTrpc } from '../trpc/admit.ts';
import { buildTrpcRouter } from '../trpc/router.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { mountDevSignIn } from './dev-sign-in.ts';
import { noFramingHeaders } from './no-framing.ts';
import { bearerChallenge, sendProblem } from './problem-response.ts';
import { DEFAULT_BODY_LIMIT, DEFAULT_IDLE_TIMEOUT_MS } from './routes.ts';

const require = createRequire(import.meta.url);

/** The token roles that may read `/metrics`. */
const METRICS_ROLES = ['platform:admin', 'platform:metrics'];

/** Swagger UI's assets are served by the platform itself: the API reference must work without internet access. */
const swaggerAssets = dirname(require.resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Platform API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

/** A token pasted into "Authorize" lives in the page's memory only: never in localStorage, where it would outlive the tab. */
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: true,
});`;

/** tRPC, the OpenAPI document, the API reference, metrics and the development issuer (discovery, sign-in). */
/** What mountDocuments serves with GET alone, besides the API reference's static assets. */
export const DOCUMENT_PATHS = ['/openapi.json', '/docs', '/docs/', '/docs/init.js', '/metrics'] as const;

export const mountDocuments = (
  app: Express,
  options: {
    deps: AppDeps;
    operations: readonly (AnyOperation & { id: string })[];
    metrics: Registry;
    devIssuer: DevIssuer | undefined;
    /** The console's OpenID client id: the development issuer's sign-in flow serves this client only. */
    consoleClientId: string;
    serverUrl: string;
    /** What `/metrics` answers a token holder; default the whole registry (the server sums connector ids away). */
    tokenMetrics?: () => Promise<string>;
  },
): void => {
  const router = buildTrpcRouter(options.operations);
  app.use(
    '/trpc',
    admitTrpc(options.operations, DEFAULT_BODY_LIMIT, options.deps.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS),
    createExpressMiddleware({
      router,
      // Never reached: admitTrpc reads every body first, under the limits of the procedures it names.
      maxBodySize: DEFAULT_BODY_LIMIT,
      // A procedure's unexpected failure is logged with its cause (what the service threw), as REST logs it.
      onError: ({ error, ctx }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' || error.code === 'SERVICE_UNAVAILABLE') {
          logUnexpectedError(options.deps.log, ctx?.traceId, error.cause ?? error);
        }
      },
      // A call refused for its token answers 401 with the challenge, as REST does (docs/authentication.md).
      responseMeta: ({ errors }) => {
        const unauthenticated = errors.find((error) => error.cause instanceof UnauthenticatedError)?.cause;
        return unauthenticated instanceof UnauthenticatedError
          ? { headers: { 'WWW-Authenticate': bearerChallenge(unauthenticated) } }
          : {};
      },
      createContext: ({ res, info }) => {
        const locals = res.locals as RequestLocals;
        // Calls finish in any order; each is kept at its place in the batch (a call that never ran leaves a hole).
        locals.callLog = new Array(info.calls.length);
        return {
          deps: options.deps,
          identity: locals.identity,
          traceId: locals.traceId,
          clientAddress: locals.clientAddress,
          bodyTextChecked: locals.bodyTextChecked === true,
          callLog: locals.callLog,
        };
      },
    }),
  );

  const document = openApiDocument(options.operations, { version: options.deps.serverVersion });
  // `servers` follows the address each client used; the rest is built once.
  app.get('/openapi.json', (req, res) => {
    (res.locals as RequestLocals).route = '/openapi.json';
    const served = withServers(document, options.serverUrl, {
      host: req.headers.host,
      protocol: req.protocol,
    });
    res.type('application/json').send(JSON.stringify(served));
  });

  app.use('/docs/assets', express.static(swaggerAssets, { index: false, maxAge: '1h' }));
  app.get('/docs/init.js', (_req, res) => {
    (res.locals as RequestLocals).route = '/docs';
    res.type('text/javascript').send(DOCS_INIT);
  });
  app.get(['/docs', '/docs/'], (_req, res) => {
    (res.locals as RequestLocals).route = '/docs';
    res.set(noFramingHeaders).type('text/html').send(DOCS_PAGE);
  });

  // Operators only (docs/authentication.md): a scraper inside the network uses METRICS_PORT instead.
  app.get('/metrics', async (_req, res) => {
    const locals = res.locals as RequestLocals;
    locals.route = '/metrics';
    try {
      // The identity the front door resolved: a disabled user's token is refused here as everywhere.
      const caller = locals.identity?.caller;
      if (!caller)
        throw locals.identity?.failure ?? new UnauthenticatedError('A bearer token is required.', false);
      locals.caller = caller;
      if (!METRICS_ROLES.some((role) => caller.roles.has(role))) {
        throw new ForbiddenError(`/metrics needs the token role '${METRICS_ROLES.join("' or '")}'.`);
      }
      const text = await (options.tokenMetrics ?? (() => options.metrics.metrics()))();
      res.type(options.metrics.contentType).send(text);
    } catch (error) {
      sendProblem(res, locals.traceId, error);
    }
  });

  const issuer = options.devIssuer;
  if (issuer) {
    app.get('/.well-known/openid-configuration', (_req, res) => {
      (res.locals as RequestLocals).route = '/.well-known/openid-configuration';
      res.json(issuer.discovery());
    });
    app.get('/.well-known/jwks.json', (_req, res) => {
      (res.locals as RequestLocals).route = '/.well-known/jwks.json';
      res.json(issuer.jwks);
    });
    mountDevSignIn(app, { deps: options.deps, issuer, clientId: options.consoleClientId });
  }
};
