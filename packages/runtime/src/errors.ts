/**
 * The runtime's one error class. Callers branch on `code` (each transport maps it to a status once), never on messages;
 * messages are written for the connector's developer and never carry a secret.
 */
export const runtimeErrorCodes = [
  'SCRIPT_INVALID',
  'NO_DEFAULT_CLASS',
  'METHOD_MISSING',
  'CONNECTOR_HTTP_ERROR',
  'CONNECTOR_ERROR',
  'TIME_LIMIT',
  'MEMORY_LIMIT',
  'STACK_LIMIT',
  'FETCH_LIMIT',
  'RESPONSE_TOO_LARGE',
  'FETCH_REFUSED',
  'SESSION_ENDED',
] as const;

export type RuntimeErrorCode = (typeof runtimeErrorCodes)[number];

export class RuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  /** The status a connector gave `ConnectorHttpError(status, message)`. */
  readonly connectorStatus: number | undefined;

  constructor(
    code: RuntimeErrorCode,
    message: string,
    options: { connectorStatus?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'RuntimeError';
    this.code = code;
    this.connectorStatus = options.connectorStatus;
  }
}

/** Limits that end the invocation even when the connector catches the error it sees. */
export const isLimitError = (error: unknown): boolean =>
  error instanceof RuntimeError &&
  [
    'TIME_LIMIT',
    'MEMORY_LIMIT',
    'STACK_LIMIT',
    'FETCH_LIMIT',
    'RESPONSE_TOO_LARGE',
    'FETCH_REFUSED',
  ].includes(error.code);
