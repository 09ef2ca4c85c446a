import { randomUUID } from 'node:crypto';
import { type AuthConfigurationSet, type AuthType, splitSecrets, typeOfKind } from '@platform/core';
import { findConnectorAuth, setConnectorAuth as storeConnectorAuth } from '@platform/store';
import { fieldChanges, fingerprinted, fingerprintedSealed } from '../audit/changes.ts';
import { audited } from '../audit/record.ts';
import { loadConnector } from '../connectors/load.ts';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { parseAuthBody } from './parse-body.ts';
import type { SetConnectorAuthInput } from './schemas.ts';

/**
 * `PUT .../connectors/{connectorId}/auth/{kind}`: sets or replaces the authorization of one usage. The secret
 * fields are sealed before they reach the store and are never logged or answered; the rest is kept in clear so
 * listings and the proxy need no decryption to tell what is configured.
 */
export const setConnectorAuth: Service<SetConnectorAuthInput, AuthConfigurationSet> = async (ctx, input) => {
  const { environment } = await writeEnvironment(ctx, input.environment);
  const connector = await loadConnector(ctx, environment.id, input.connectorId);
  const type = typeOfKind[input.kind];
  const { usage, name, data } = parseAuthBody(
    type,
    input.body,
    connector.supportedAuth as AuthType[],
    ctx.allowPrivateNetworks === true,
  );
  const { publicData, secretData } = splitSecrets(type, data);
  const label = name ?? `${type} (${usage})`;
  const { row, before } = await audited(
    ctx,
    async (tx) => ({
      before: await findConnectorAuth(tx, connector.id, usage),
      row: await storeConnectorAuth(tx, {
        id: randomUUID(),
        connectorId: connector.id,
        usage,
        type,
        name: label,
        publicData,
        secretData: ctx.secrets.seal(JSON.stringify(secretData)),
        now: ctx.now,
      }),
    }),
    ({ before }) => ({
      action: 'connector.auth.set',
      target: { type: 'connectorAuthorization', id: connector.id, environment },
      changes: {
        ...fieldChanges(before && { usage: before.usage, type: before.type, name: before.name }, {
          usage,
          type,
          name: label,
        }),
        ...fieldChanges(before?.publicData, publicData),
        ...fieldChanges(fingerprintedSealed(ctx, before?.secretData), fingerprinted(ctx, secretData)),
      },
    }),
  );
  ctx.log.info(
    {
      environmentId: environment.guid,
      connectorId: connector.id,
      usage,
      type,
      revision: row.revision,
      replaced: before !== undefined,
    },
    'connector authorization set',
  );
  ctx.connectorChanged?.(connector.id);
  return { id: row.id, name: row.name, type, usage };
};
