import { errorStatus, type ProblemDetails } from './contract.generated.ts';

export type ErrorCode = keyof typeof errorStatus;

/** The ProblemDetails body of an error answer, with the fields the platform adds (docs/errors.md). */
export type PlatformProblem = ProblemDetails & {
  traceId?: string;
  /** Field or parameter name → messages. */
  errors?: Record<string, string[]>;
};

const codeOfStatus = new Map<number, ErrorCode>(
  Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]),
);

/** An error answer of the REST API. `code` is the server's stable code for the status, `UNEXPECTED_STATUS` else. */
export class PlatformApiError extends Error {
  readonly code: ErrorCode | 'UNEXPECTED_STATUS';
  readonly status: number;
  readonly problem: PlatformProblem;

  constructor(status: number, problem: PlatformProblem) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.name = 'PlatformApiError';
    this.status = status;
    this.problem = problem;
    this.code = codeOfStatus.get(status) ?? 'UNEXPECTED_STATUS';
  }

  get traceId(): string | undefined {
    return this.problem.traceId;
  }

  get errors(): Record<string, string[]> | undefined {
    return this.problem.errors;
  }
}

export const isPlatformApiError = (error: unknown): error is PlatformApiError =>
  error instanceof PlatformApiError;
