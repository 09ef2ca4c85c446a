/** What the console shows of a failed call: the HTTP status, the server's message and per-field errors. */
export type Problem = { status: number; message: string; errors: Record<string, string[]> };

type TrpcErrorShape = {
  message?: unknown;
  data?: { httpStatus?: unknown; errors?: unknown } | null;
};

export const problemOf = (error: unknown): Problem => {
  const shape = (error ?? {}) as TrpcErrorShape;
  const status = typeof shape.data?.httpStatus === 'number' ? shape.data.httpStatus : 0;
  const errors =
    shape.data?.errors && typeof shape.data.errors === 'object'
      ? (shape.data.errors as Record<string, string[]>)
      : {};
  // No HTTP answer at all (offline, the server down): the browser's own words ("Failed to fetch") tell a user nothing.
  const unreached =
    typeof shape.message !== 'string' ||
    !shape.message ||
    (status === 0 && /failed to fetch|networkerror|load failed/i.test(shape.message));
  const message = unreached
    ? 'The platform could not be reached: check your connection, then try again.'
    : (shape.message as string);
  return { status, message, errors };
};

/** 4xx answers will not change by asking again; network failures and 5xx may. */
export const worthRetrying = (failureCount: number, error: unknown): boolean => {
  const { status } = problemOf(error);
  return failureCount < 2 && (status === 0 || status >= 500);
};
