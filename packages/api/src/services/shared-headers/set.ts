import { ValidationError } from '@platform/core';
import { findSharedHeaders, replaceSharedHeaders } from '@platform/store';
import { fieldChanges, fingerprinted, fingerprintedSealed } from '../audit/changes.ts';
import { audited } from '../audit/record.ts';
import { loadConnector } from '../connectors/load.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import type { SetSharedHeadersInput, SharedHeaderNames } from './schemas.ts';

/**
 * `PUT .../connectors/{connectorId}/shared-headers` `{headers: {name: value}}`: replaces the connector-level
 * header values (docs/connector-auth.md rule 10); `{}` removes them. The values are treated as secrets: sealed at
 * rest, and the answer names the headers only.
 */
const prefixed = (values: Record<string, unknown> | undefined) =>
  values && Object.fromEntries(Object.entries(values).map(([name, value]) => [`headers.${name}`, value]));

export const setSharedHeaders: Service<SetSharedHeadersInput, SharedHeaderNames> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const connector = await loadConnector(ctx, environment.id, input.connectorId);
  const headers = input.body.headers;
  const seen = new Map<string, string>();
  for (const name of Object.keys(headers)) {
    const other = seen.get(name.toLowerCase());
    if (other !== undefined) {
      throw new ValidationError(
        `Header names are case-insensitive: '${other}' and '${name}' name the same header; keep one.`,
        { [`headers.${name}`]: [`the same header as '${other}'`] },
      );
    }
    seen.set(name.toLowerCase(), name);
  }
  const names = Object.keys(headers).sort();
  await audited(
    ctx,
    async (tx) => {
      const before = await findSharedHeaders(tx, connector.id);
      await replaceSharedHeaders(
        tx,
        { connectorId: connector.id, now: ctx.now },
        names.length === 0 ? undefined : ctx.secrets.seal(JSON.stringify(headers)),
      );
      return before;
    },
    (before) => ({
      action: 'connector.sharedHeaders.set',
      target: { type: 'connector', id: connector.id, environment },
      // Header values are secrets: each shown as its fingerprint, by header name.
      changes: fieldChanges(
        prefixed(fingerprintedSealed(ctx, before)),
        prefixed(fingerprinted(ctx, headers)),
      ),
    }),
  );
  ctx.log.info(
    { environmentId: environment.guid, connectorId: connector.id, headers: names.length },
    'connector shared headers set',
  );
  ctx.connectorChanged?.(connector.id);
  return { names };
};
