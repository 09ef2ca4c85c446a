import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Listening, listen, readBody } from './servers.ts';

export type TokenServerMode =
  | 'ok'
  | 'no-expires-in'
  | 'error-500'
  | 'garbage'
  | 'hang'
  | 'oauth-error'
  /** 401 with a Basic challenge naming `invalid_client` in its parameters, no body. */
  | 'challenge'
  /** 401 with a bare Basic challenge and an error body far larger than any real one. */
  | 'challenge-huge-body'
  /** A token of another kind than Bearer: one openid-client does not know, and one it does (DPoP). */
  | 'token-type-mac'
  | 'token-type-dpop';

export type TokenRequest = { headers: IncomingMessage['headers']; body: string };

export type TokenServerState = {
  mode: TokenServerMode;
  requests: TokenRequest[];
  issued: string[];
  /** `expires_in` of the tokens issued; any JSON value. */
  expiresIn: unknown;
  /** Every answer waits this long first: a slow provider, or with `error-500` one that fails after a while. */
  delayMs: number;
  /** `oauth-error` answers this body (RFC 6749 §5.2). */
  oauthError: Record<string, unknown>;
  /**
   * Issue refresh tokens and rotate them: each is accepted once, a reused one answers `invalid_grant`, as providers
   * with refresh token rotation do (the refresh race of NangoHQ/nango#1016).
   */
  rotateRefreshTokens: boolean;
  /** Refresh tokens presented again after their one use. */
  reusedRefreshTokens: string[];
};

/**
 * A token endpoint written by hand: JSON or form bodies, and the broken behaviours a real one
 * cannot be made to show (no expires_in, 500, invalid JSON, never answering, slow, rotating refresh tokens).
 */
export const startTokenServer = async (): Promise<Listening & TokenServerState> => {
  const state: TokenServerState = {
    mode: 'ok',
    requests: [],
    issued: [],
    expiresIn: 3600,
    delayMs: 0,
    oauthError: { error: 'invalid_client', error_description: 'bad secret' },
    rotateRefreshTokens: false,
    reusedRefreshTokens: [],
  };
  const liveRefreshTokens = new Set<string>();
  const listening = await listen(async (req: IncomingMessage, res: ServerResponse) => {
    const body = (await readBody(req)).toString('utf8');
    state.requests.push({ headers: req.headers, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (state.mode === 'hang') return; // never answers
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const issue = (extra: Record<string, unknown>) => {
      const token = `tok-${state.issued.length + 1}`;
      state.issued.push(token);
      let refresh: Record<string, string> = {};
      if (state.rotateRefreshTokens) {
        const refreshToken = `rt-${state.issued.length}`;
        liveRefreshTokens.add(refreshToken);
        refresh = { refresh_token: refreshToken };
      }
      json(200, { access_token: token, token_type: 'Bearer', ...refresh, ...extra });
    };
    const issueOfType = (tokenType: string) => {
      json(200, { access_token: `typed-${state.requests.length}`, token_type: tokenType, expires_in: 3600 });
    };
    switch (state.mode) {
      case 'error-500':
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('upstream exploded');
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"access_token": nope');
        return;
      case 'oauth-error':
        json(400, state.oauthError);
        return;
      case 'challenge':
        res.writeHead(401, { 'www-authenticate': 'Basic realm="tokens", error="invalid_client"' });
        res.end();
        return;
      case 'challenge-huge-body':
        res.writeHead(401, {
          'www-authenticate': 'Basic realm="tokens"',
          'content-type': 'application/json',
        });
        res.end(JSON.stringify({ error: 'invalid_client', padding: 'x'.repeat(100_000) }));
        return;
      case 'no-expires-in':
        issue({});
        return;
      case 'token-type-mac':
        issueOfType('mac');
        return;
      case 'token-type-dpop':
        issueOfType('DPoP');
        return;
      default: {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') === 'refresh_token') {
          const presented = form.get('refresh_token') ?? '';
          if (!liveRefreshTokens.delete(presented)) {
            state.reusedRefreshTokens.push(presented);
            json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
            return;
          }
        }
        issue({ expires_in: state.expiresIn });
      }
    }
  });
  return Object.assign(state, listening);
};
