import { uuid } from '@platform/core';
import { z } from 'zod';
import { getConnectorScript } from '../services/connectors/script.ts';
import { defineOperation } from './operation.ts';

const params = z.object({
  environment: z
    .string()
    .min(1)
    .max(253)
    .describe("The environment's technical name (case-insensitive) or its guid."),
  connectorId: uuid(),
});

const ConnectorScript = z
  .strictObject({
    version: z.string(),
    type: z.enum(['media', 'data']),
    options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    script: z.string(),
  })
  .meta({ id: 'ConnectorScript' });

/** The connector's module for browsers that run it themselves (docs/demo-connectors.md, "Try it"). */
export const connectorScriptOperations = [
  defineOperation({
    id: 'connectors.script',
    method: 'GET',
    path: '/grafx/api/v1/environment/{environment}/connectors/{connectorId}/script',
    summary: "The connector's published module and options, to run it in a browser",
    description:
      "The connector's published ES module and options, as the console's Try-it and connector-cli debug run it in the browser in the platform runtime (its fetches then go through the proxy route). Neither holds a secret: credentials stay in the authorization configurations.",
    tag: 'Connectors',
    access: 'platform:read',
    malformedParams: 404,
    params,
    response: ConnectorScript,
    status: 200,
    errors: [404],
    service: getConnectorScript,
  }),
];
