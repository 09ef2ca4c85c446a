import { problemOf } from '../api/problem.ts';

export const Loading = ({ what }: { what: string }) => (
  <p className="state" role="status" aria-live="polite">
    Loading {what}…
  </p>
);

export const Empty = ({ children }: { children: React.ReactNode }) => (
  <p className="state empty">{children}</p>
);

/**
 * A failed call, said plainly: 403 names the missing role (the server's message does), 404 says it was not found,
 * anything else gives the server's message.
 */
export const ErrorState = ({ error, what }: { error: unknown; what: string }) => {
  const problem = problemOf(error);
  const title =
    problem.status === 403
      ? `You may not see ${what}`
      : problem.status === 404
        ? `${what[0]?.toUpperCase()}${what.slice(1)} could not be found`
        : `Could not load ${what}`;
  const detail =
    problem.status === 404
      ? `It does not exist, or is no longer visible to you. ${problem.message}`
      : problem.message;
  return (
    <div className="state error" role="alert">
      <strong>{title}</strong>
      <p>{detail}</p>
    </div>
  );
};
