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
  return undefined;
};
