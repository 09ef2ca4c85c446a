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
    // The entry commits in the transaction that stores (or drops) the user's tokens: never one without the other.
    within: (tx) =>
      recordChange(ctx, tx, {
        action: 'connector.authorizationCode.complete',
        target: { type: 'connectorAuthorization', id: input.connectorId.toLowerCase(), environment },
        changes: { usage: { to: 'browser' } },
      }),
    state: input.body.state,
    code: input.body.code,
  });
  return undefined;
};
