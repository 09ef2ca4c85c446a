import { recordChange } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { flowOf } from './flow.ts';

type Input = { environment: string; connectorId: string; body: { state: string; code: string } };

/**
 * Completes the caller's own login with the state and code the redirect page handed over: the code is exchanged
 * only when the caller is the platform user who started that login (else 403; the state is burnt either way).
 */
export const completeAuthorizationCode: Service<Input, undefined> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  await flowOf(ctx).complete({
    environmentId: environment.id,
    connectorId: input.connectorId,
    userId: ctx.caller.userId,
    state: input.body.state,
    code: input.body.code,
  });
  // The proxy's token store writes the user's tokens (or drops them) on its own connection: the entry follows
  // the change that succeeded, in a statement of its own.
  await recordChange(ctx, ctx.database.db, {
    action: 'connector.authorizationCode.complete',
    target: { type: 'connectorAuthorization', id: input.connectorId.toLowerCase(), environment },
    changes: { usage: { to: 'browser' } },
  });
  return undefined;
};
