export { checkScript } from './check-script.ts';
export { timeLimit } from './classify.ts';
export { keepEngineReady } from './engine.ts';
export { isLimitError, RuntimeError, type RuntimeErrorCode, runtimeErrorCodes } from './errors.ts';
export { unparsedUrlForRecord, urlForRecord } from './fetch-record.ts';
export { defaultLimits, type RuntimeLimits } from './limits.ts';
export {
  type CallHooks,
  type ConnectorSandbox,
  type LoadParams,
  loadConnector,
  sdkVersion,
} from './sandbox.ts';
export { fromSandboxFailure, type SandboxFailure, toSandboxFailure } from './sandbox-failure.ts';
export {
  type ConnectorMethod,
  connectorMethods,
  type FetchRecord,
  type HostFetch,
  type HostFetchRequest,
  type HostFetchResponse,
  type InvocationResult,
  isBinaryType,
  type KeptElsewhere,
  type Platform,
  type RedirectMode,
  redirectModes,
  type UploadFile,
} from './types.ts';
