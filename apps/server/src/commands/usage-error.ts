/** A mistake in how a command was called: exit code 2 and one line saying how to fix it. */
export class UsageError extends Error {
  override name = 'UsageError';
}
