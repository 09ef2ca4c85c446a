import { type AuthType, ConflictError, type Connector } from '@platform/core';
import { connectorAuthTypes, updateConnector } from '@platform/store';
import { fieldChanges } from '../audit/changes.ts';
import { connectorFields } from '../audit/connector-fields.ts';
import { audited } from '../audit/record.ts';
import { assertScriptRuns } from '../connector-runtime/check-script.ts';
import { prepareFirstInstance } from '../connector-runtime/prepare.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { connectorNotFound, loadConnector } from './load.ts';
import { type RepublishConnectorInput, toConnector, toDefinition } from './schemas.ts';

/**
 * `PUT .../connectors/{connectorId}`: publishes a new version over the old one; the authorizations stay, and so do
 * `enabled`, `default` and `supportedAuth` unless the body gives them. The Connector's read-only fields (the
 * platform's CLI sends the GET reply back) are ignored. A version that drops a type an authorization uses is
 * refused (409) rather than leaving a configuration the connector no longer supports: delete that authorization
 * first. A script that does not load as a module with a default class is refused (422).
 */
export const republishConnector: Service<RepublishConnectorInput, Connector> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const current = await loadConnector(ctx, environment.id, input.connectorId);
  await assertScriptRuns(ctx, input.body.script);
  const definition = toDefinition(input.body, current.supportedAuth);
  const { enabled, default: isDefault } = input.body;
  const configured = await connectorAuthTypes(ctx.database.db, current.id);
  const dropped = configured.filter((auth) => !definition.supportedAuth.includes(auth.type as AuthType));
  if (dropped.length > 0) {
    const which = dropped.map((auth) => `${auth.usage} (${auth.type})`).join(', ');
    throw new ConflictError(
      `The new version's supportedAuth no longer lists the type of the ${which} authorization; add the type back or delete that authorization first.`,
    );
  }
  const row = await audited(
    ctx,
    async (tx) => {
      const updated = await updateConnector(tx, environment.id, current.id, {
        ...definition,
        ...(enabled === undefined ? {} : { enabled }),
        ...(isDefault === undefined ? {} : { isDefault }),
        now: ctx.now,
      });
      if (!updated) throw connectorNotFound(input.connectorId);
      return updated;
    },
    (updated) => ({
      action: 'connector.republish',
      target: { type: 'connector', id: updated.id, environment },
      changes: fieldChanges(connectorFields(ctx, current), connectorFields(ctx, updated)),
    }),
  );
  ctx.log.info({ environmentId: environment.guid, connectorId: row.id }, 'connector republished');
  ctx.connectorChanged?.(current.id);
  prepareFirstInstance(ctx, row);
  return toConnector(row);
};
