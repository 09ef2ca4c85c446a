import type { ConnectorRow } from '@platform/store';
import type { ServiceContext } from '../context.ts';

/** The version the runtime keeps a connector's scripts and sessions under: a republish (any change) is a new one. */
export const runtimeVersionOf = (connector: ConnectorRow): string =>
  `${connector.version}@${connector.updatedAt.getTime()}`;

/**
 * A connector just published or republished: the runtime may load the version's first instance now, so that the first
 * call (a publisher trying it, Studio opening it) does not wait for the script to compile. Not for a disabled one,
 * which no call may run.
 */
export const prepareFirstInstance = (ctx: ServiceContext, connector: ConnectorRow): void => {
  if (!connector.enabled) return;
  ctx.connectorRuntime?.prepare?.({
    connectorId: connector.id,
    version: runtimeVersionOf(connector),
    script: connector.script,
    options: connector.options,
  });
};
