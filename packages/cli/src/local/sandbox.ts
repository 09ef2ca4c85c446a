import type {
  ConnectorMethod,
  ConnectorSandbox,
  HostFetch,
  InvocationResult,
  LoadParams,
  RuntimeError,
} from '@platform/runtime';
import { CliError } from '../errors.ts';

// The runtime (with the engine's WebAssembly) loads only when a local command runs: every other command starts fast.
const isRuntimeError = (error: unknown): error is RuntimeError =>
  error instanceof Error &&
  error.name === 'RuntimeError' &&
  typeof (error as { code?: unknown }).code === 'string';

/** A runtime failure as one CLI line: the runtime's code, its message, and where to look. */
export const connectorFailure = (what: string, error: unknown): CliError => {
  if (isRuntimeError(error)) {
    const status = error.connectorStatus === undefined ? '' : ` (status ${error.connectorStatus})`;
    return new CliError(
      'CONNECTOR_FAILED',
      `${what}: ${error.code}${status}: ${error.message}; fix connector.ts`,
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new CliError('CONNECTOR_FAILED', `${what}: ${reason}; fix connector.ts`);
};

/**
 * Loads the module in the platform's runtime on this machine. A module that does not load (no default class, its
 * constructor threw, it hit a limit while loading) is the connector failing, as a method that throws is: exit 1.
 */
export const loadLocal = async (
  script: string,
  options: Record<string, unknown>,
  fetch: HostFetch,
  extra: Pick<LoadParams, 'onFetch' | 'onLogError' | 'limits'> = {},
): Promise<ConnectorSandbox> => {
  const { loadConnector } = await import('@platform/runtime');
  try {
    return await loadConnector({ script, options, platform: 'server', fetch, ...extra });
  } catch (error) {
    if (isRuntimeError(error)) {
      throw new CliError(
        'CONNECTOR_FAILED',
        `the connector does not load: ${error.code}: ${error.message}; fix connector.ts`,
      );
    }
    throw error;
  }
};

/**
 * The check the server makes at publish and republish (the runtime's `checkScript`): a module it would refuse with
 * 422 fails here with the same code and reason, so `build` never writes a module that cannot be published.
 */
export const checkLocal = async (script: string): Promise<void> => {
  const { checkScript } = await import('@platform/runtime');
  try {
    await checkScript(script);
  } catch (error) {
    if (isRuntimeError(error)) {
      throw new CliError(
        'CONNECTOR_FAILED',
        `the built module cannot run on the platform (publish would answer 422 ${error.code}): ${error.message}; fix connector.ts`,
      );
    }
    throw error;
  }
};

/** Calls one method; a failure is a CONNECTOR_FAILED error naming the method. */
export const callLocal = async (
  sandbox: ConnectorSandbox,
  method: ConnectorMethod,
  args: unknown[],
): Promise<InvocationResult> => {
  try {
    return await sandbox.call(method, args);
  } catch (error) {
    throw connectorFailure(method, error);
  }
};

export const jsonOf = (result: InvocationResult): unknown =>
  result.kind === 'json' ? result.value : { contentType: result.contentType, bytes: result.bytes.length };
