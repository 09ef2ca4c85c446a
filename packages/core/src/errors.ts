/**
 * Typed errors with stable codes. Transports map `code` to a status once; nothing branches on messages.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_FAILED: 502,
  UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** Field or parameter name → messages, as ProblemDetails `errors` carries them. */
export type FieldErrors = Record<string, string[]>;

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldErrors | undefined;
  /** Extra response headers a transport should send (for example `Retry-After`). */
  readonly headers: Record<string, string> | undefined;
  /** Extra ProblemDetails members (a connector run's stable `code`, its `connectorStatus`). */
  readonly members: Record<string, string | number> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      errors?: FieldErrors;
      headers?: Record<string, string>;
      members?: Record<string, string | number>;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
    this.members = options.members;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export class ValidationError extends ServiceError {
  constructor(message: string, errors?: FieldErrors) {
    super('VALIDATION_FAILED', message, errors ? { errors } : {});
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends ServiceError {
  constructor(message: string) {
    super('NOT_FOUND', message);
    this.name = 'NotFoundError';
  }
}

export class ForbiddenError extends ServiceError {
  constructor(message: string) {
    super('FORBIDDEN', message);
    this.name = 'ForbiddenError';
  }
}

export class UnauthenticatedError extends ServiceError {
  /** Whether a token was presented (it then failed verification): drives `error="invalid_token"`. */
  readonly tokenPresented: boolean;
  constructor(message: string, tokenPresented: boolean) {
    super('UNAUTHENTICATED', message);
    this.name = 'UnauthenticatedError';
    this.tokenPresented = tokenPresented;
  }
}

export class ConflictError extends ServiceError {
  constructor(message: string) {
    super('CONFLICT', message);
    this.name = 'ConflictError';
  }
}

export class UpstreamError extends ServiceError {
  constructor(message: string, code: 'UPSTREAM_FAILED' | 'UPSTREAM_TIMEOUT' = 'UPSTREAM_FAILED') {
    super(code, message);
    this.name = 'UpstreamError';
  }
}

export const isServiceError = (value: unknown): value is ServiceError => value instanceof ServiceError;
