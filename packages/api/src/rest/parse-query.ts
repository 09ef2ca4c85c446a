import { parse } from 'node:querystring';

/** Stands for a query value whose percent-encoding is not UTF-8: the text check names it (docs/errors.md). */
const UNDECODABLE = '\udfff';

/**
 * Query strings as Node's querystring reads them, except that a value whose escapes are not UTF-8 (`%ff`,
 * `%ed%a0%80`, an encoded lone surrogate) is refused by name rather than silently turned into U+FFFD.
 */
export const parseQuery = (text: string) =>
  parse(text, '&', '=', {
    decodeURIComponent: (value: string) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return UNDECODABLE;
      }
    },
  });

/** Whether a value `parseQuery` read had escapes that are not UTF-8. */
export const undecodable = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes(UNDECODABLE) : Array.isArray(value) && value.some(undecodable);
