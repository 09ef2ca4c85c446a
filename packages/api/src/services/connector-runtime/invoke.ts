import { type AuthUsage, ForbiddenError, ServiceError } from '@platform/core';
import type { ConnectorMethod, InvocationResult } from '@platform/runtime';
import type { ConnectorActivityLog, ConnectorRow } from '@platform/store';
import { loadConnector } from '../connectors/load.ts';
import type { ServiceContext } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { cleanOutcome } from './clean-outcome.ts';
import type { ConnectorRuntimePort } from './port.ts';
import { runtimeVersionOf } from './prepare.ts';
import { runError, runStatus } from './run-errors.ts';

/**
 * The methods each connector type may have (the SDK's MediaConnector with MediaConnectorUpload, DataConnector with
 * DataSourceVariableCapability); `upload` and `getPageItemById` also need their capability, which the runtime checks.
 */
const methodsOf: Record<string, readonly ConnectorMethod[]> = {
  media: ['query', 'detail', 'download', 'upload', 'getCapabilities', 'getConfigurationOptions'],
  data: ['getPage', 'getModel', 'getPageItemById', 'getCapabilities', 'getConfigurationOptions'],
};

/** Methods that describe the connector and fetch nothing: `GET .../capabilities` needs platform:read only. */
const selfDescribing: ReadonlySet<ConnectorMethod> = new Set(['getCapabilities', 'getConfigurationOptions']);

export type RunInput = {
  environment: string;
  connectorId: string;
  body?: { usage?: AuthUsage | undefined; options?: Record<string, unknown> | undefined } | undefined;
};

const runtimeOf = (
  ctx: ServiceContext,
): { runtime: ConnectorRuntimePort; activity: ConnectorActivityLog } => {
  if (!ctx.connectorRuntime || !ctx.connectorActivity)
    throw new ServiceError('UNAVAILABLE', 'This server runs no connector runtime.');
  return { runtime: ctx.connectorRuntime, activity: ctx.connectorActivity };
};

/**
 * The connector row, from memory until a connector changes anywhere (the read cache follows the database's change
 * notifications), so a warm call reads no script from the database.
 */
const connectorOf = (
  ctx: ServiceContext,
  environmentId: number,
  connectorId: string,
): Promise<ConnectorRow> =>
  ctx.reads.read(`connector-run\u0000${environmentId}\u0000${connectorId.toLowerCase()}`, () =>
    loadConnector(ctx, environmentId, connectorId),
  );

/**
 * One run of a connector method through the runtime, for every route of docs/connector-runtime.md: the caller's
 * access, the usage's role, the connector enabled and of a type that has the method; then the run, recorded in the
 * connector's activity whatever its outcome (written in the background, docs/connector-runtime.md).
 */
export const invokeConnector = async (
  ctx: ServiceContext,
  input: RunInput,
  method: ConnectorMethod,
  args: unknown[],
): Promise<{ connector: ConnectorRow; result: InvocationResult }> => {
  const { runtime, activity } = runtimeOf(ctx);
  const { environment } = await readEnvironment(ctx, input.environment);
  const usage = input.body?.usage ?? 'server';
  // What a connector says of itself needs no credential: without connector:server, the proxy refuses any fetch it
  // tries for the server usage (FETCH_REFUSED), so nothing is fetched with the server's credentials.
  if (usage === 'server' && !selfDescribing.has(method) && !ctx.caller.roles.has('connector:server')) {
    throw new ForbiddenError(
      'Running a connector with the server usage needs the connector:server token role.',
    );
  }
  const connector = await connectorOf(ctx, environment.id, input.connectorId);
  if (!connector.enabled) {
    throw new ServiceError(
      'CONFLICT',
      `Connector ${connector.id} is disabled; enable it before running it.`,
      {
        members: { code: 'CONNECTOR_DISABLED' },
      },
    );
  }
  if (!(methodsOf[connector.type] ?? []).includes(method)) {
    throw new ServiceError('VALIDATION_FAILED', `A ${connector.type} connector has no method ${method}.`, {
      members: { code: 'METHOD_MISSING' },
    });
  }
  const raw = await runtime.invoke({
    environmentId: environment.id,
    subscriptionId: String(environment.subscriptionId),
    connectorId: connector.id,
    version: runtimeVersionOf(connector),
    script: connector.script,
    options: connector.options,
    caller: ctx.caller,
    usage,
    method,
    args,
    callOptions: input.body?.options ?? {},
  });
  // The one place a run's outcome leaves the runtime: nothing of it goes on before it is redacted and bounded.
  const outcome = await cleanOutcome(raw, () =>
    ctx.connectorSecrets
      ? ctx.connectorSecrets({
          environmentId: environment.id,
          connectorId: connector.id,
          usage,
          caller: ctx.caller,
        })
      : Promise.resolve([]),
  );
  for (const message of outcome.logs ?? []) {
    ctx.log.warn({ connectorId: connector.id, method, usage, message }, 'connector logError');
  }
  activity.record({
    connectorId: connector.id,
    at: ctx.now,
    method,
    usage,
    status: runStatus(outcome.error),
    code: outcome.error?.code ?? null,
    error: outcome.error?.message ?? null,
    durationMs: outcome.durationMs,
    fetches: outcome.fetches.map((fetch) => ({ ...fetch, status: fetch.status ?? null })),
    logs: outcome.logs ?? [],
  });
  if (outcome.error) throw runError(outcome.error);
  if (!outcome.result)
    throw new ServiceError('INTERNAL', 'The runtime answered neither a result nor an error.');
  return { connector, result: outcome.result };
};

/** The JSON answer of a method; a binary one here means the connector returned a pointer where JSON belongs. */
export const jsonOf = (result: InvocationResult): unknown =>
  result.kind === 'json' ? result.value : { contentType: result.contentType, bytes: result.bytes.byteLength };
