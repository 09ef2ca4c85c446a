import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { flowOf } from './flow.ts';

type Input = { environment: string; connectorId: string };

/** Starts the caller's own authorization-code login: state and PKCE are bound to this platform user. */
export const loginAuthorizationCode: Service<Input, { authorizationUrl: string }> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  return flowOf(ctx).login({
    environmentId: environment.id,
    connectorId: input.connectorId,
    userId: ctx.caller.userId,
  });
};
