import { ServiceError } from '@platform/core';
import type { AuthorizationCodeFlow, ServiceContext } from '../context.ts';

/** The flow the server composed in; without a proxy there is nobody to hold the user's tokens. */
export const flowOf = (ctx: ServiceContext): AuthorizationCodeFlow => {
  if (!ctx.authorizationCode) {
    throw new ServiceError('UNAVAILABLE', 'The authorization-code flow is not available on this server.');
  }
  return ctx.authorizationCode;
};
