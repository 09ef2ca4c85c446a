export { createDevIssuer, type DevIssuer } from './auth/dev-issuer.ts';
export { createTokenVerifier, type TokenVerifier } from './auth/verifier.ts';
export { openApiDocument } from './openapi/document.ts';
export { type AnyOperation, defineOperation, type Operation } from './operations/operation.ts';
export { operations } from './operations/table.ts';
export { type AppOptions, createApp } from './rest/app.ts';
export { forwardedChainOf } from './rest/client-address.ts';
export { announcesBody } from './rest/close-unread.ts';
export type { AppDeps, RequestLocals } from './rest/context.ts';
export { DOCUMENT_PATHS, mountDocuments } from './rest/documents.ts';
export { sendProblem } from './rest/problem-response.ts';
export { mountProxy, PROXY_PATH, type ProxyHandler } from './rest/proxy-route.ts';
export { readJsonBody } from './rest/read-body.ts';
export { type ReplicaCount, watchReplicaCount } from './rest/replica-count.ts';
export type {
  ConnectorRuntimePort,
  Invocation,
  InvocationOutcome,
} from './services/connector-runtime/port.ts';
export type { AuthorizationCodeFlow, Caller, Service, ServiceContext } from './services/context.ts';
export { createReadCache, type ReadCache } from './services/read-cache.ts';
export type { AppRouter } from './trpc/app-router.ts';
