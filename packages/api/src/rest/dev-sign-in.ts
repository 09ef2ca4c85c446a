import { UserId } from '@platform/core';
import { findUser, listUsersWithRoles, type UserWithRoles } from '@platform/store';
import express, { type Express, type Request, type Response } from 'express';
import { createAuthorizationCodes } from '../auth/dev-authorization-codes.ts';
import { DEV_AUTHORIZE_PATH, DEV_TOKEN_PATH, type DevIssuer } from '../auth/dev-issuer.ts';
import type { AppDeps, RequestLocals } from './context.ts';
import { noFramingHeaders } from './no-framing.ts';

/**
 * The token roles a listed user signs in with (docs/authentication.md): fixed here, never taken from the form, so the
 * page cannot mint an operator (`platform:admin`); operators' tokens come from `platform-server token`, which needs
 * the data folder.
 */
const SIGN_IN_ROLES = ['platform:read', 'platform:write'] as const;
const ACCESS_TOKEN_TTL_SECONDS = 3600;

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  nonce: string | undefined;
  scope: string | undefined;
};

/**
 * The authorization request's parameters. An unknown client or a redirect URI off this server is shown on the page,
 * never redirected to (RFC 6749 §4.1.2.1); other mistakes go back to the client as `error=invalid_request`.
 */
const readAuthorizeRequest = (
  params: Record<string, unknown>,
  issuer: string,
  clientId: string,
): { ok: AuthorizeRequest } | { page: string } | { redirect: string } => {
  const client = text(params.client_id);
  const redirectUri = text(params.redirect_uri);
  if (client !== clientId)
    return { page: `Unknown client_id: this issuer serves the console (${clientId}).` };
  if (!redirectUri?.startsWith(`${issuer}/`)) {
    return { page: `redirect_uri must be an address of this server (${issuer}/…).` };
  }
  const state = text(params.state);
  const back = (description: string) => {
    const url = new URL(redirectUri);
    url.searchParams.set('error', 'invalid_request');
    url.searchParams.set('error_description', description);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    return { redirect: url.href };
  };
  if (params.response_type !== 'code') return back('response_type must be code.');
  const codeChallenge = text(params.code_challenge);
  if (
    params.code_challenge_method !== 'S256' ||
    !codeChallenge ||
    !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)
  ) {
    return back('PKCE is required: code_challenge_method=S256 and a code_challenge.');
  }
  return {
    ok: {
      clientId: client,
      redirectUri,
      state,
      codeChallenge,
      nonce: text(params.nonce),
      scope: text(params.scope),
    },
  };
};

const rolesText = (user: UserWithRoles) => {
  const parts = user.subscriptionRoles.map((m) => `${m.roles.join(', ')} in ${m.subscription}`);
  if (user.environmentRoleCount > 0) {
    parts.push(
      `roles on ${user.environmentRoleCount} environment${user.environmentRoleCount === 1 ? '' : 's'}`,
    );
  }
  return parts.length > 0 ? parts.join('; ') : 'no roles';
};

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${html(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}
fieldset{border:1px solid #8888;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
label{display:block;padding:.3rem 0}small{opacity:.8}
button{font:inherit;padding:.5rem 1.5rem;border-radius:6px}
</style>
</head>
<body><main>${body}</main></body>
</html>`;

const signInPage = (request: AuthorizeRequest, users: UserWithRoles[]) => {
  const hidden = Object.entries({
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    state: request.state,
    code_challenge: request.codeChallenge,
    nonce: request.nonce,
    scope: request.scope,
  })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${html(value ?? '')}">`)
    .join('\n');
  // Display names and ids only: the page needs no token, so it shows no e-mail address.
  const choices = users
    .map(
      (user, i) =>
        `<label><input type="radio" name="sub" value="${html(user.id)}"${i === 0 ? ' checked' : ''}> ` +
        `${html(user.name ?? user.id)} <small>(${html(user.id)}): ${html(rolesText(user))}</small></label>`,
    )
    .join('\n');
  return page(
    'Sign in: development issuer',
    `<h1>Sign in</h1>
<p>Development issuer: pick a user to sign in to the console as, with the token roles ${SIGN_IN_ROLES.join(' and ')}. There are no passwords; this page does not exist in production.</p>
<form method="post" action="${DEV_AUTHORIZE_PATH}">
${hidden}
<fieldset><legend>User</legend>
${choices || '<p>No users yet: import a data file or start with DEMO_DATA=true.</p>'}
</fieldset>
<button type="submit">Sign in</button>
</form>`,
  );
};

const tokenError = (res: Response, error: string, description: string, status = 400) => {
  res.status(status).set('Cache-Control', 'no-store').json({ error, error_description: description });
};

/**
 * The development issuer's sign-in flow (docs/authentication.md): `GET /oauth/authorize` shows a page to pick a
 * listed user, its form posts back and redirects to the client with a code, and `POST /oauth/token` exchanges
 * that code (PKCE S256, single use, one minute) for an access token and an ID token. Only mounted when the
 * development issuer runs, that is never in production.
 */
export const mountDevSignIn = (
  app: Express,
  options: { deps: AppDeps; issuer: DevIssuer; clientId: string },
): void => {
  const { issuer, clientId } = options;
  const codes = createAuthorizationCodes();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const route = (path: string) => (_req: Request, res: Response, next: () => void) => {
    (res.locals as RequestLocals).route = path;
    // The sign-in page runs no script and loads nothing: it needs only its own inline styles, and no frame.
    res.set({
      ...noFramingHeaders,
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; ${noFramingHeaders['Content-Security-Policy']}`,
    });
    next();
  };

  /** An authorize request that cannot go on: a page naming why, or back to the client with its error. */
  const answeredUnusable = (
    res: Response,
    read: ReturnType<typeof readAuthorizeRequest>,
  ): read is Exclude<ReturnType<typeof readAuthorizeRequest>, { ok: unknown }> => {
    res.set('Cache-Control', 'no-store');
    if ('page' in read) {
      res
        .status(400)
        .type('text/html')
        .send(page('Sign-in error', `<h1>Sign-in error</h1><p>${html(read.page)}</p>`));
      return true;
    }
    if ('redirect' in read) {
      res.redirect(303, read.redirect);
      return true;
    }
    return false;
  };

  app.get(DEV_AUTHORIZE_PATH, route(DEV_AUTHORIZE_PATH), async (req, res) => {
    const read = readAuthorizeRequest(req.query, issuer.issuer, clientId);
    if (answeredUnusable(res, read)) return;
    // Subscription owners first (the first is preselected: the demo owner with demo data), then by id.
    const owns = (user: UserWithRoles) =>
      user.subscriptionRoles.some((m) => m.roles.includes('SubscriptionOwner'));
    const users = (await listUsersWithRoles(options.deps.database.db)).sort(
      (a, b) => Number(owns(b)) - Number(owns(a)),
    );
    res.type('text/html').send(signInPage(read.ok, users));
  });

  app.post(DEV_AUTHORIZE_PATH, route(DEV_AUTHORIZE_PATH), form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const read = readAuthorizeRequest(
      { ...body, response_type: 'code', code_challenge_method: 'S256' },
      issuer.issuer,
      clientId,
    );
    if (answeredUnusable(res, read)) return;
    // Only a user the database lists signs in, under their stored id; any `roles` field is ignored.
    const sub = UserId.safeParse(body.sub);
    const found = sub.success ? await findUser(options.deps.database.db, sub.data) : undefined;
    // A disabled user is not listed, and may not sign in by naming their id either.
    const user = found?.status === 'Disabled' ? undefined : found;
    const url = new URL(read.ok.redirectUri);
    if (!user) {
      url.searchParams.set('error', 'access_denied');
      url.searchParams.set('error_description', 'Pick one of the users the page lists.');
    } else {
      url.searchParams.set(
        'code',
        codes.issue({
          clientId: read.ok.clientId,
          redirectUri: read.ok.redirectUri,
          codeChallenge: read.ok.codeChallenge,
          nonce: read.ok.nonce,
          sub: user.id,
          roles: SIGN_IN_ROLES,
        }),
      );
    }
    if (read.ok.state !== undefined) url.searchParams.set('state', read.ok.state);
    url.searchParams.set('iss', issuer.issuer);
    res.redirect(303, url.href);
  });

  app.post(DEV_TOKEN_PATH, route(DEV_TOKEN_PATH), form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'authorization_code') {
      tokenError(res, 'unsupported_grant_type', 'Only grant_type=authorization_code is supported.');
      return;
    }
    const code = text(body.code);
    const redirectUri = text(body.redirect_uri);
    const codeVerifier = text(body.code_verifier);
    const client = text(body.client_id);
    if (!code || !redirectUri || !codeVerifier || !client) {
      tokenError(res, 'invalid_request', 'code, redirect_uri, client_id and code_verifier are required.');
      return;
    }
    if (client !== clientId) {
      tokenError(res, 'invalid_client', `Unknown client_id: this issuer serves ${clientId}.`, 401);
      return;
    }
    const grant = codes.redeem(code, { clientId: client, redirectUri, codeVerifier });
    if (typeof grant === 'string') {
      tokenError(res, 'invalid_grant', `The code was not accepted: ${grant}.`);
      return;
    }
    const [accessToken, idToken] = await Promise.all([
      issuer.mint({ sub: grant.sub, roles: grant.roles, ttlSeconds: ACCESS_TOKEN_TTL_SECONDS }),
      issuer.mintIdToken({
        sub: grant.sub,
        clientId: grant.clientId,
        nonce: grant.nonce,
        ttlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      }),
    ]);
    res.set('Cache-Control', 'no-store').json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      id_token: idToken,
      scope: 'openid',
    });
  });
};
