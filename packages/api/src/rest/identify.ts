import type { IncomingMessage } from 'node:http';
import type { DisabledCheck } from '../auth/user-status.ts';
import type { TokenVerifier } from '../auth/verifier.ts';
import type { Caller } from '../services/context.ts';
import type { RequestLocals } from './context.ts';

/**
 * Who sent a request, judged from its `Authorization` header alone, before any route and before any body byte
 * is read: a verified caller, a failed verification (kept, and thrown only by operations that need a token), or
 * nobody. The rate limit and every transport's token checks read it. Calls `next` once `locals.identity` is set.
 * A verified caller whose user is disabled is a failure too (403): every route that needs a token refuses it.
 */
export type Identity = { readonly caller?: Caller; readonly failure?: unknown };

const NOBODY: Identity = {};

export const identify =
  (verifier: TokenVerifier, disabled: DisabledCheck) =>
  (req: IncomingMessage, locals: RequestLocals, next: () => void): void => {
    const authorization = req.headers.authorization;
    if (authorization === undefined) {
      locals.identity = NOBODY;
      next();
      return;
    }
    const failed = (failure: unknown) => {
      locals.identity = { failure };
      next();
    };
    const settle = (caller: Caller, refusal: unknown) => {
      if (refusal) return failed(refusal);
      locals.identity = { caller };
      next();
    };
    const admit = (caller: Caller) => {
      const refusal = disabled(caller.userId);
      if (refusal instanceof Promise) refusal.then((found) => settle(caller, found), failed);
      else settle(caller, refusal);
    };
    // A token verified before is answered at once: a turn of the event loop less on nearly every request.
    const known = verifier.known(authorization);
    if (known !== undefined) {
      admit(known);
      return;
    }
    verifier.verify(authorization).then(admit, failed);
  };
