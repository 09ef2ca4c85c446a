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
      "The identity provider's callback (no token): stores nothing and answers an HTML page that posts " +
      '{type, state, code} (or {type, state?, error}) to the window that opened it, on the platform origin only; ' +
      'always 200, and the same page for any unknown environment, connector or state',
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
    summary:
      "Complete the caller's own login with the state and code the redirect page posted: the code is exchanged " +
      'and the tokens stored only when the caller is the user who started the login (else 403; the state is ' +
      'single use either way)',
    tag: 'Connector authorization',
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
    service: completeAuthorizationCode,
  }),
  defineOperation({
    id: 'authorizationCode.logout',
    method: 'POST',
    path: `${BASE}/logout`,
    summary: "Drop the caller's own tokens of this connector",
    tag: 'Connector authorization',
    access: 'platform:read',
    params,
    malformedParams: 404,
    status: 204,
    errors: [404],
    service: logoutAuthorizationCode,
  }),
] as const;
