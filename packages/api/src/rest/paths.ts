/** `/a/{id}/b` → `/a/:id/b` (Express 5 path syntax). */
export const expressPath = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

/** A matcher for a templated path, used to tell 405 (known path, other method) from 404. */
export const pathMatcher = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, '[^/]+')}/?$`);
