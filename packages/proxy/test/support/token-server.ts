import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Listening, listen, readBody } from './servers.ts';

export type TokenServerMode = 'ok' | 'no-expires-in' | 'error-500' | 'garbage' | 'hang' | 'oauth-error';

export type TokenRequest = { headers: IncomingMessage['headers']; body: string };

/**
 * A token endpoint written by hand: JSON or form bodies, and the broken behaviours a real one
 * cannot be made to show (no expires_in, 500, invalid JSON, never answering).
 */
export const startTokenServer = async (): Promise<
  Listening & { mode: TokenServerMode; requests: TokenRequest[]; issued: string[]; expiresIn: number }
> => {
  const state = {
    mode: 'ok' as TokenServerMode,
    requests: [] as TokenRequest[],
    issued: [] as string[],
    expiresIn: 3600,
  };
  const listening = await listen(async (req: IncomingMessage, res: ServerResponse) => {
    const body = (await readBody(req)).toString('utf8');
    state.requests.push({ headers: req.headers, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    switch (state.mode) {
      case 'hang':
        return; // never answers
      case 'error-500':
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('upstream exploded');
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"access_token": nope');
        return;
      case 'oauth-error':
        json(400, { error: 'invalid_client', error_description: 'bad secret' });
        return;
      case 'no-expires-in': {
        const token = `tok-${state.issued.length + 1}`;
        state.issued.push(token);
        json(200, { access_token: token, token_type: 'Bearer' });
        return;
      }
      default: {
        const token = `tok-${state.issued.length + 1}`;
        state.issued.push(token);
        json(200, { access_token: token, token_type: 'Bearer', expires_in: state.expiresIn });
      }
    }
  });
  return Object.assign(state, listening);
};
