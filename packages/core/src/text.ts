import type { FieldErrors } from './errors.ts';
import { formatPath } from './validation.ts';

/**
 * U+0000, or half of a surrogate pair without its other half: no database column, log line or UTF-8 peer takes
 * such text as it is (PostgreSQL refuses both, UTF-8 encoders silently replace a lone surrogate). Every string a
 * client sends is judged by this one rule (docs/errors.md).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what this rule refuses.
const MALFORMED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const MALFORMED_TEXT_MESSAGE =
  'must be well-formed Unicode text: no U+0000, no unpaired surrogate, no invalid UTF-8 escape';

export const isWellFormedText = (value: string): boolean => !MALFORMED.test(value);

/**
 * Every string of a JSON-like value (object keys included) that breaks the rule, named by its path (`description`,
 * `options.key`, `[3].kind`; `rootName` when the value itself is such a string); empty when all are well formed.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export const malformedTextErrors = (value: unknown, rootName = '(root)'): FieldErrors => {
  // Every request's path and query parameters pass here: a flat object of good strings costs no allocation.
  if (isFlatAndWellFormed(value)) return NONE;
  const errors: FieldErrors = {};
  // Each entry links to its parent: the path is built only for a bad string, so deep nesting stays linear.
  type Entry = { value: unknown; key?: PropertyKey; parent?: Entry };
  const flag = (entry: Entry, key?: string) => {
    const path: PropertyKey[] = key === undefined ? [] : [key];
    for (let e: Entry | undefined = entry; e?.key !== undefined; e = e.parent) path.unshift(e.key);
    Object.defineProperty(errors, formatPath(path) || rootName, {
      value: [MALFORMED_TEXT_MESSAGE],
      enumerable: true,
      configurable: true,
    });
  };
  const stack: Entry[] = [{ value }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const current = entry.value;
    if (typeof current === 'string') {
      if (!isWellFormedText(current)) flag(entry);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: entry });
    } else if (typeof current === 'object' && current !== null) {
      for (const key of Object.keys(current)) {
        if (!isWellFormedText(key)) flag(entry, key);
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: entry });
      }
    }
  }
  return errors;
};

const NONE: FieldErrors = Object.freeze({}) as FieldErrors;

const isFlatAndWellFormed = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child !== 'string' || !isWellFormedText(key) || !isWellFormedText(child)) return false;
  }
  return true;
};
