import type { IncomingMessage } from 'node:http';
import type { TokenVerifier } from '../auth/verifier.ts';
import type { Caller } from '../services/context.ts';
import type { RequestLocals } from './context.ts';

/**
 * Who sent a request, judged from its `Authorization` header alone, before any route and before any body byte
 * is read: a verified caller, a failed verification (kept, and thrown only by operations that need a token), or
 * nobody. The rate limit and every transport's token checks read it. Calls `next` once `locals.identity` is set.
 */
export type Identity = { readonly caller?: Caller; readonly failure?: unknown };

const NOBODY: Identity = {};

export const identify =
  (verifier: TokenVerifier) =>
  (req: IncomingMessage, locals: RequestLocals, next: () => void): void => {
    const authorization = req.headers.authorization;
    if (authorization === undefined) {
      locals.identity = NOBODY;
      next();
      return;
    }
    // A token verified before is answered at once: a turn of the event loop less on nearly every request.
    const known = verifier.known(authorization);
    if (known !== undefined) {
      locals.identity = { caller: known };
      next();
      return;
    }
    verifier.verify(authorization).then(
      (caller) => {
        locals.identity = { caller };
        next();
      },
      (failure: unknown) => {
        locals.identity = { failure };
        next();
      },
    );
  };
