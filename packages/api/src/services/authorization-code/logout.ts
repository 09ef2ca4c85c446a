import { recordChange } from '../audit/record.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { flowOf } from './flow.ts';

type Input = { environment: string; connectorId: string };

/** Drops the caller's own tokens of the connector; other users keep theirs. */
export const logoutAuthorizationCode: Service<Input, undefined> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  await flowOf(ctx).logout({
    environmentId: environment.id,
    connectorId: input.connectorId,
    userId: ctx.caller.userId,
    // The entry commits in the transaction that stores (or drops) the user's tokens: never one without the other.
    within: (tx) =>
      recordChange(ctx, tx, {
        action: 'connector.authorizationCode.logout',
        target: { type: 'connectorAuthorization', id: input.connectorId.toLowerCase(), environment },
        changes: { usage: { to: 'browser' } },
      }),
  });
  return undefined;
};
