import { NotFoundError } from '@platform/core';
import { findEnvironmentByReference } from '@platform/store';
import type { Service } from '../context.ts';
import { flowOf } from './flow.ts';

type Input = { environment: string; connectorId: string } & Record<string, unknown>;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem">
<h1>Signed in</h1>
<p>The connector can now reach its API on your behalf. You can close this window.</p>
<script>
  if (window.opener) window.opener.postMessage({ type: 'grafx-connector-authorized' }, '*');
  setTimeout(() => window.close(), 500);
</script>
</body></html>`;

/**
 * The identity provider's callback. It carries no platform token: the state names the platform user who started the
 * login, and the flow exchanges the code for that user's tokens.
 */
export const redirectAuthorizationCode: Service<Input, string> = async (ctx, input) => {
  const { environment: reference, connectorId, ...query } = input;
  const environment = await findEnvironmentByReference(ctx.database.db, reference);
  if (!environment) throw new NotFoundError(`Environment '${reference}' was not found.`);
  const strings = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string | string[]] => {
      const value = entry[1];
      return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    }),
  );
  await flowOf(ctx).redirect({ environmentId: environment.id, connectorId, query: strings });
  return PAGE;
};
