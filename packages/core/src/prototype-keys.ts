import type { FieldErrors } from './errors.ts';
import { addFieldErrors, formatPath } from './validation.ts';

export const PROTOTYPE_KEY_MESSAGE =
  'the key __proto__ is not accepted: JavaScript objects cannot keep it as a plain field';

/**
 * Every `__proto__` key of a JSON-like value, named by its path (`__proto__`, `options.__proto__`). JSON.parse keeps
 * such a key as an own field, but the first copy by assignment (a schema's output, a spread into defaults) turns it
 * into the object's prototype and the field vanishes without a word: it is refused instead (docs/errors.md).
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export const prototypeKeyErrors = (value: unknown): FieldErrors => {
  const errors: FieldErrors = {};
  // Each entry links to its parent: a path is built only for a refused key, so deep nesting stays linear.
  type Entry = { value: unknown; key?: PropertyKey; parent?: Entry };
  const stack: Entry[] = [{ value }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const current = entry.value;
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: entry });
      continue;
    }
    for (const key of Object.keys(current)) {
      const child: Entry = { value: (current as Record<string, unknown>)[key], key, parent: entry };
      if (key === '__proto__') addFieldErrors(errors, formatPath(pathOf(child)), [PROTOTYPE_KEY_MESSAGE]);
      stack.push(child);
    }
  }
  return errors;
};

const pathOf = (entry: { key?: PropertyKey; parent?: { key?: PropertyKey; parent?: unknown } }) => {
  const path: PropertyKey[] = [];
  for (let e: typeof entry | undefined = entry; e?.key !== undefined; e = e.parent as typeof entry)
    path.unshift(e.key);
  return path;
};
