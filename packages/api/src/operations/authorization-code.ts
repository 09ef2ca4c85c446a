import { uuid } from '@platform/core';
import { z } from 'zod';
import { completeAuthorizationCode } from '../services/authorization-code/complete.ts';
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
    summary:
      "The identity provider's callback: an HTML page that hands the code to the window that opened it",
    description:
      "The identity provider's callback. Needs no token and stores nothing. It reads the code from the parameter the " +
      'configuration names (`code` by default) and answers a small HTML page (always 200) that shows the result and ' +
      'posts `{type, state, code}` (or `{type, state?, error}`) to `window.opener`, on the platform origin only. ' +
      'The page is the same for an unknown environment, connector or state.',
    tag: 'Connector authorization',
    access: 'public',
    // Any connector id: a malformed one answers the same page as an unknown one.
    params: z.object({ environment: z.string().min(1), connectorId: z.string().min(1) }),
    // The code's parameter name is configurable (specCustomization.codeParameterName): every key is passed on.
    query: z.looseObject({
      state: singleQueryValue().optional().describe('The state of the login this callback completes.'),
      code: singleQueryValue().optional().describe('The authorization code (under its configured name).'),
    }),
    produces: 'text/html',
    response: z.string().describe('The HTML page'),
    status: 200,
    errors: [],
    service: redirectAuthorizationCode,
  }),
  defineOperation({
    id: 'authorizationCode.complete',
    method: 'POST',
    path: `${BASE}/complete`,
    summary: "Complete the caller's own login with the state and code the redirect page posted",
    description:
      "Exchanges the code (with the login's PKCE verifier) and stores the tokens, only when the caller is the " +
      'platform user who started the login: anyone else gets 403 and nothing is stored. The state is single use ' +
      'either way: the first completion that names it consumes it.',
    tag: 'Connector authorization',
    // As login and logout: it touches the caller's own tokens only.
    access: 'platform:read',
    params,
    malformedParams: 404,
    body: z
      .strictObject({
        state: z.string().min(1).max(512).describe('The state the redirect page posted.'),
        code: z.string().min(1).max(4096).describe('The authorization code the redirect page posted.'),
      })
      .meta({ id: 'AuthorizationCodeCompletion' }),
    status: 204,
    errors: [400, 404, 502],
    audit: {
      action: 'connector.authorizationCode.complete',
      target: 'connectorAuthorization',
      targetParam: 'connectorId',
    },
    service: completeAuthorizationCode,
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
    audit: {
      action: 'connector.authorizationCode.logout',
      target: 'connectorAuthorization',
      targetParam: 'connectorId',
    },
    service: logoutAuthorizationCode,
  }),
] as const;
