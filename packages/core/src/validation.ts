import type { z } from 'zod';
import { type FieldErrors, ValidationError } from './errors.ts';

/** `['subscriptions', 0, 'environments', 2, 'type']` → `subscriptions[0].environments[2].type`. */
export const formatPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return out === '' ? name : `${out}.${name}`;
  }, '');

/** Every issue of a failed parse, keyed by the path it concerns (`prefix` names the whole input, such as `body`). */
export const fieldErrors = (error: z.ZodError, prefix = ''): FieldErrors => {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const name = formatPath(path) || prefix || '(root)';
      const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
      // Own properties only: a field named `constructor` or `__proto__` must not meet Object.prototype's.
      const list = Object.hasOwn(out, name) ? (out[name] ?? []) : [];
      list.push(message);
      Object.defineProperty(out, name, { value: list, enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
};

/** The first failing path and its message, for one-line reports (`subscriptions[0].environments[2].type: ...`). */
export const firstError = (error: z.ZodError): { path: string; message: string } => {
  const [name, messages] = Object.entries(fieldErrors(error))[0] ?? ['(root)', ['invalid']];
  return { path: name, message: messages[0] ?? 'invalid' };
};

/** Parses or throws a ValidationError whose `errors` names every bad field. */
export const parseOrThrow = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const first = Object.keys(errors)[0] ?? '(root)';
  throw new ValidationError(`The ${what} is not valid: check ${first}.`, errors);
};
