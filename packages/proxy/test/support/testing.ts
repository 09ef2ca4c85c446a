/** Test support shared with the server's end-to-end suites (`@platform/proxy/testing`). */
export { jwtBearerGrant, loginThroughBrowser, type Oidc, oidcClients, startOidc } from './oidc.ts';
export { startTokenServer, type TokenServerState } from './token-server.ts';
