import {
  AuthType,
  type Connector,
  type PatchConnectorBody,
  type PublishConnectorBody,
  type RepublishConnectorBody,
  supportedAuthentication,
} from '@platform/core';
import type { ConnectorDefinition, ConnectorRow } from '@platform/store';

/** Inputs of the connector services: path parameters, plus `body` where the endpoint takes one. */
export type EnvironmentInput = { environment: string };
export type ConnectorInput = EnvironmentInput & { connectorId: string };
export type PublishConnectorInput = EnvironmentInput & { body: PublishConnectorBody };
export type RepublishConnectorInput = ConnectorInput & { body: RepublishConnectorBody };
export type PatchConnectorInput = ConnectorInput & { body: PatchConnectorBody };

/**
 * The stored definition of a publish body; duplicates in `supportedAuth` and `allowedDomains` collapse. An
 * absent `supportedAuth` is `keep`: every type on publish, the stored list on republish.
 */
export const toDefinition = (
  body: PublishConnectorBody,
  keep: readonly string[] = AuthType.options,
): ConnectorDefinition => ({
  name: body.name,
  description: body.description ?? null,
  version: body.version,
  type: body.type,
  iconUrl: body.iconUrl || null,
  options: body.options ?? {},
  script: body.script,
  apiVersion: body.apiVersion ?? null,
  allowedDomains: [...new Set(body.allowedDomains.map((d) => d.toLowerCase()))],
  forwardedHeaders: body.proxyOptions?.forwardedHeaders ?? false,
  supportedAuth: [...new Set(body.supportedAuth ?? keep)],
});

/** The Connector record of docs/environment-api.md: never the script's secrets, never an authorization's data. */
export const toConnector = (row: ConnectorRow): Connector => ({
  id: row.id,
  name: row.name,
  description: row.description,
  version: row.version,
  type: row.type as Connector['type'],
  iconUrl: row.iconUrl,
  enabled: row.enabled,
  default: row.isDefault,
  allowedDomains: row.allowedDomains,
  proxyOptions: { forwardedHeaders: row.forwardedHeaders },
  supportedAuthentication: supportedAuthentication(row.supportedAuth as AuthType[]),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
