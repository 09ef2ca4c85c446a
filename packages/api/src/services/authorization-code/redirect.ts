import { findEnvironmentByReference } from '@platform/store';
import type { Service } from '../context.ts';
import { flowOf } from './flow.ts';
import { type HtmlPage, MESSAGE_TYPE, redirectPage } from './redirect-page.ts';

type Input = { environment: string; connectorId: string } & Record<string, unknown>;

const stringsOf = (query: Record<string, unknown>): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string | string[]] => {
      const value = entry[1];
      return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    }),
  );

/**
 * The identity provider's callback. It carries no platform token, so it stores nothing: the page hands the state
 * and code to the window that opened the login, on the platform's own origin, and that window completes the login
 * with its platform token. Every outcome is a 200 page (a failure is a result the page shows, not an error of this
 * request), and an unknown environment, connector or state all answer the same one: without a token, this endpoint
 * must not tell what exists.
 */
export const redirectAuthorizationCode: Service<Input, HtmlPage> = async (ctx, input) => {
  const { environment: reference, connectorId, ...query } = input;
  const origin = new URL(ctx.publicUrl).origin;
  const environment = await findEnvironmentByReference(ctx.database.db, reference);
  const outcome = environment
    ? await flowOf(ctx).redirect({ environmentId: environment.id, connectorId, query: stringsOf(query) })
    : ({ kind: 'invalid' } as const);
  switch (outcome.kind) {
    case 'code':
      return redirectPage({
        title: 'Sign-in received',
        text: 'Return to the application: it finishes connecting your account. You can close this window.',
        message: { type: MESSAGE_TYPE, state: outcome.state, code: outcome.code },
        origin,
      });
    case 'refused':
      return redirectPage({
        title: 'Sign-in failed',
        text: `The sign-in service did not grant access (${outcome.error}). Close this window and start the sign-in again.`,
        message: { type: MESSAGE_TYPE, state: outcome.state, error: outcome.error },
        origin,
      });
    case 'invalid':
      return redirectPage({
        title: 'Sign-in link not valid',
        text: 'This sign-in link is unknown, was already used or has expired. Close this window and start the sign-in again.',
        message: { type: MESSAGE_TYPE, error: 'invalid_state' },
        origin,
      });
  }
};
