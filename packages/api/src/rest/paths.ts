export const PARAMETER = /\{([A-Za-z0-9_]+)\}/g;

/** `/a/{id}/b` → `/a/:id/b` (Express 5 path syntax). */
export const expressPath = (path: string): string => path.replace(PARAMETER, ':$1');

export const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** A matcher for a templated path, used to tell 405 (known path, other method) from 404. */
export const pathMatcher = (path: string): RegExp =>
  new RegExp(`^${escapeRegExp(path).replace(PARAMETER, '[^/]+')}/?$`);

/**
 * A templated path's exact spelling (no trailing slash), each parameter captured, and the parameters' names in the
 * order of their captures.
 */
export const exactPathPattern = (path: string): { pattern: RegExp; names: string[] } => ({
  pattern: new RegExp(`^${escapeRegExp(path).replace(PARAMETER, '([^/]+)')}$`),
  names: [...path.matchAll(PARAMETER)].map((match) => match[1] as string),
});
