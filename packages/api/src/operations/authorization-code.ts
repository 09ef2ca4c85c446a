import { uuid } from '@platform/core';
import { z } from 'zod';
import { loginAuthorizationCode } from '../services/authorization-code/login.ts';
import { logoutAuthorizationCode } from '../services/authorization-code/logout.ts';
import { redirectAuthorizationCode } from '../services/authorization-code/redirect.ts';
import { singleQueryValue } from './input.ts';
import { defineOperation } from './operation.ts';

const BASE = '/grafx/api/v1/environment/{environment}/connectors/{connectorId}/auth/oauth-authorization-code';
const params = z.object({ environment: z.string().min(1), connectorId: uuid() });

/** The per-user authorization-code flow of docs/environment-api.md (browser usage only). */
export const authorizationCodeOperations = [
  defineOperation({
    id: 'authorizationCode.login',
    method: 'POST',
    path: `${BASE}/login`,
    summary: "Start the caller's own OAuth 2.0 authorization-code login; open the returned URL in a browser",
    description:
      "Starts the caller's own OAuth 2.0 authorization-code login for the browser usage of the connector and answers the URL to open. The state and PKCE verifier are bound to the caller, single use, and expire after 10 minutes.",
    tag: 'Connector authorization',
    access: 'platform:read',
    params,
    malformedParams: 404,
    response: z.strictObject({ authorizationUrl: z.url() }).meta({ id: 'AuthorizationCodeLogin' }),
    status: 200,
    errors: [400, 404, 502],
    service: loginAuthorizationCode,
  }),
  defineOperation({
    id: 'authorizationCode.redirect',
    method: 'GET',
    path: `${BASE}/redirect`,
    summary: "The identity provider's callback: stores the user's tokens and answers a small page",
    description:
      "The identity provider's callback. It reads the code from the parameter the configuration names (`code` by default) and answers a small HTML page. Needs no token: it answers the same for an unknown environment, connector or state.",
    tag: 'Connector authorization',
    access: 'public',
    params,
    malformedParams: 404,
    // The code's parameter name is configurable (specCustomization.codeParameterName): every key is passed on.
    query: z.looseObject({
      state: singleQueryValue().optional().describe('The state of the login this callback completes.'),
      code: singleQueryValue().optional().describe('The authorization code (under its configured name).'),
    }),
    produces: 'text/html',
    response: z.string(),
    status: 200,
    errors: [400, 404, 502],
    service: redirectAuthorizationCode,
  }),
  defineOperation({
    id: 'authorizationCode.logout',
    method: 'POST',
    path: `${BASE}/logout`,
    summary: "Drop the caller's own tokens of this connector",
    description:
      "Drops the caller's own tokens of this connector; every replica forgets them within 30 seconds.",
    tag: 'Connector authorization',
    access: 'platform:read',
    params,
    malformedParams: 404,
    status: 204,
    errors: [404],
    service: logoutAuthorizationCode,
  }),
] as const;
