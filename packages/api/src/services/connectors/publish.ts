import { randomUUID } from 'node:crypto';
import type { Connector } from '@platform/core';
import { insertConnector } from '@platform/store';
import { fieldChanges } from '../audit/changes.ts';
import { connectorFields } from '../audit/connector-fields.ts';
import { recordChange } from '../audit/record.ts';
import { assertScriptRuns } from '../connector-runtime/check-script.ts';
import { prepareFirstInstance } from '../connector-runtime/prepare.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { withinEnvironmentCap } from '../quotas.ts';
import { type PublishConnectorInput, toConnector, toDefinition } from './schemas.ts';

/**
 * `POST .../connectors`: publishes a new connector without authorization (docs/connector-auth.md rule 1); enabled
 * unless the body says `enabled: false`, as the platform's own CLI does. A script that does not load as a module with
 * a default class is refused (422).
 */
export const publishConnector: Service<PublishConnectorInput, Connector> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  await assertScriptRuns(ctx, input.body.script);
  const row = await withinEnvironmentCap(ctx, 'connectors', environment, async (db) => {
    const inserted = await insertConnector(db, {
      ...toDefinition(input.body),
      enabled: input.body.enabled ?? true,
      id: randomUUID(),
      environmentId: environment.id,
      now: ctx.now,
    });
    await recordChange(ctx, db, {
      action: 'connector.publish',
      target: { type: 'connector', id: inserted.id, environment },
      changes: fieldChanges(undefined, connectorFields(ctx, inserted)),
    });
    return inserted;
  });
  ctx.log.info({ environmentId: environment.guid, connectorId: row.id }, 'connector published');
  prepareFirstInstance(ctx, row);
  return toConnector(row);
};
