import { createRequire } from 'node:module';
import { apiReference } from '@scalar/express-api-reference';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import type { Express } from 'express';
import type { Registry } from 'prom-client';
import type { DevIssuer } from '../auth/dev-issuer.ts';
import { openApiDocument } from '../openapi/document.ts';
import type { AnyOperation } from '../operations/operation.ts';
import { buildTrpcRouter } from '../trpc/router.ts';
import type { AppDeps, RequestLocals } from './context.ts';

const require = createRequire(import.meta.url);

/** The Scalar bundle is served by the platform itself: API references must work without internet access. */
const scalarBundle = (): string | undefined => {
  try {
    return require.resolve('@scalar/api-reference/browser/standalone.js');
  } catch {
    return undefined;
  }
};

/** tRPC, the OpenAPI document, the API reference, metrics and (development) issuer discovery. */
export const mountDocuments = (
  app: Express,
  options: {
    deps: AppDeps;
    operations: readonly (AnyOperation & { id: string })[];
    metrics: Registry;
    devIssuer: DevIssuer | undefined;
    serverUrl: string;
  },
): void => {
  const router = buildTrpcRouter(options.operations);
  app.use(
    '/trpc',
    (_req, res, next) => {
      (res.locals as RequestLocals).route = '/trpc';
      next();
    },
    createExpressMiddleware({
      router,
      createContext: ({ req, res }) => ({
        deps: options.deps,
        authorization: req.headers.authorization,
        traceId: (res.locals as RequestLocals).traceId,
      }),
    }),
  );

  const document = JSON.stringify(
    openApiDocument(options.operations, {
      version: options.deps.serverVersion,
      serverUrl: options.serverUrl,
    }),
  );
  app.get('/openapi.json', (_req, res) => {
    (res.locals as RequestLocals).route = '/openapi.json';
    res.type('application/json').send(document);
  });

  const bundle = scalarBundle();
  if (bundle) app.get('/docs/scalar.js', (_req, res) => res.sendFile(bundle));
  app.use(
    '/docs',
    (_req, res, next) => {
      (res.locals as RequestLocals).route = '/docs';
      next();
    },
    apiReference({
      url: '/openapi.json',
      pageTitle: 'Platform API reference',
      ...(bundle ? { cdn: '/docs/scalar.js' } : {}),
    }),
  );

  app.get('/metrics', async (_req, res) => {
    (res.locals as RequestLocals).route = '/metrics';
    res.type(options.metrics.contentType).send(await options.metrics.metrics());
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
  }
};
