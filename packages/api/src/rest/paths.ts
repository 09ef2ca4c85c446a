const PARAMETER = /\{([A-Za-z0-9_]+)\}/g;

/** `/a/{id}/b` → `/a/:id/b` (Express 5 path syntax). */
export const expressPath = (path: string): string => path.replace(PARAMETER, ':$1');

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** A matcher for a templated path, used to tell 405 (known path, other method) from 404. */
export const pathMatcher = (path: string): RegExp =>
  new RegExp(`^${escapeRegExp(path).replace(PARAMETER, '[^/]+')}/?$`);

/**
 * A templated path's exact spelling (no trailing slash), each parameter captured, and the parameters' names in the
 * order of their captures. `emptyParameters`: a parameter may also be empty (a missing id, missing-ids.ts).
 */
export const exactPathPattern = (
  path: string,
  emptyParameters = false,
): { pattern: RegExp; names: string[] } => ({
  pattern: new RegExp(`^${escapeRegExp(path).replace(PARAMETER, emptyParameters ? '([^/]*)' : '([^/]+)')}$`),
  names: [...path.matchAll(PARAMETER)].map((match) => match[1] as string),
});
