import type { z } from 'zod';
import { type FieldErrors, ValidationError } from './errors.ts';

/** `['subscriptions', 0, 'environments', 2, 'type']` → `subscriptions[0].environments[2].type`. */
export const formatPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return out === '' ? name : `${out}.${name}`;
  }, '');

/** What an unknown key is called in `errors`; the data file adds the closest known key. */
export type DescribeUnknownKey = (path: readonly PropertyKey[], key: string) => string;

/** Every issue of a failed parse, keyed by the path it concerns (`prefix` names the whole input, such as `body`). */
export const fieldErrors = (
  error: z.ZodError,
  prefix = '',
  describeUnknownKey: DescribeUnknownKey = () => 'unknown field',
): FieldErrors => {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const name = formatPath(path) || prefix || '(root)';
      const message =
        issue.code === 'unrecognized_keys'
          ? describeUnknownKey(issue.path, String(path[path.length - 1]))
          : // A record key its schema refused: zod says "Invalid key in record"; the key's own rule says why.
            issue.code === 'invalid_key' && issue.issues.length > 0
            ? issue.issues.map((inner) => inner.message).join('; ')
            : issue.message;
      addFieldErrors(out, name, [message]);
    }
  }
  return out;
};

/**
 * Appends `messages` under `name`. Own properties only: a field named `constructor`, `toString` or `__proto__`
 * (any key a client may send) must not meet Object.prototype's member of that name.
 */
export const addFieldErrors = (errors: FieldErrors, name: string, messages: readonly string[]): void => {
  const list = Object.hasOwn(errors, name) ? (errors[name] ?? []) : [];
  list.push(...messages);
  Object.defineProperty(errors, name, { value: list, enumerable: true, writable: true, configurable: true });
};

/** The first failing path and its message, for one-line reports (`subscriptions[0].environments[2].type: ...`). */
export const firstError = (error: z.ZodError): { path: string; message: string } => {
  const [name, messages] = Object.entries(fieldErrors(error))[0] ?? ['(root)', ['invalid']];
  return { path: name, message: messages[0] ?? 'invalid' };
};

/** Most problems a one-line report lists before it says how many more there are. */
export const LISTED_ERRORS = 20;

/**
 * Every bad path with its first message, in order, on one line: the first `limit` of them, then
 * `(and N more)`. A file with several mistakes is fixed in one pass rather than one run per mistake.
 */
export const listErrors = (errors: FieldErrors, limit = LISTED_ERRORS): string => {
  const entries = Object.entries(errors);
  const listed = entries.slice(0, limit).map(([path, messages]) => `${path}: ${messages[0] ?? 'invalid'}`);
  const more = entries.length > limit ? ` (and ${entries.length - limit} more)` : '';
  return `${listed.join('; ')}${more}`;
};

/** `text` ended as a sentence: a full stop, unless it ends with one already or with a question (`did you mean x?`). */
export const asSentence = (text: string): string => (/[.?!]$/.test(text) ? text : `${text}.`);

/** Parses or throws a ValidationError whose `errors` names every bad field. */
export const parseOrThrow = <S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  describeUnknownKey?: DescribeUnknownKey,
): z.output<S> => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error, '', describeUnknownKey);
  const first = Object.keys(errors)[0] ?? '(root)';
  throw new ValidationError(`The ${what} is not valid: check ${first}.`, errors);
};
