import {
  addFieldErrors,
  type FieldErrors,
  fieldErrors,
  malformedTextErrors,
  NotFoundError,
  prototypeKeyErrors,
  ValidationError,
} from '@platform/core';
import { z } from 'zod';
import type { AnyOperation } from './operation.ts';

export type RawRequest = {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  hasBody: boolean;
  /** No body bytes at all: an operation whose every body field is optional then reads `{}`. */
  bodyEmpty?: boolean;
  /** The body's raw text was scanned and can hold no U+0000 or surrogate: its strings need no walk. */
  bodyTextChecked?: boolean;
};

/** Elements of an array body are named by index (`body[2]`), fields by their own path (`clientId`). */
const bodyNames = (errors: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.startsWith('[') ? `body${k}` : k, v]));

/**
 * U+0000 and unpaired surrogates in any path parameter, query value or body string (keys included), then a body
 * key `__proto__` anywhere → 400 naming each (docs/errors.md): one rule for every operation of every transport,
 * before the operation's own schema.
 */
const rejectMalformedText = (raw: RawRequest) => {
  const params = malformedTextErrors(raw.params);
  const query = malformedTextErrors(raw.query);
  const body = raw.hasBody && !raw.bodyTextChecked ? bodyNames(malformedTextErrors(raw.body, 'body')) : {};
  const errors = { ...params, ...query, ...body };
  const names = Object.keys(errors);
  if (names.length > 0) {
    throw new ValidationError(
      `U+0000 and unpaired surrogates are not accepted: check ${names.join(', ')}.`,
      errors,
    );
  }
  const prototypeKeys = raw.hasBody && !raw.bodyTextChecked ? bodyNames(prototypeKeyErrors(raw.body)) : {};
  if (Object.keys(prototypeKeys).length > 0) {
    throw new ValidationError(
      `A key named __proto__ is not accepted: check ${Object.keys(prototypeKeys).join(', ')}.`,
      prototypeKeys,
    );
  }
};

const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/**
 * A path or query parameter is a string (a number or boolean from a typed tRPC client), or, for a query key given
 * twice, a list of them. An object (`{"toString":null}` over tRPC) is refused by name before any schema or message
 * converts it to text, which would call the object's own `toString`/`valueOf`.
 */
const rejectObjectParameters = (raw: RawRequest) => {
  const errors: FieldErrors = {};
  for (const values of [raw.params, raw.query]) {
    for (const [name, value] of Object.entries(values)) {
      if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) continue;
      addFieldErrors(errors, name, ['must be a single value (a string), not an object or nested list']);
    }
  }
  const names = Object.keys(errors);
  if (names.length > 0) {
    throw new ValidationError(`The parameter ${names.join(', ')} must be a single value.`, errors);
  }
};

/**
 * Validates a request against its operation and returns the service input. The same function serves REST (params,
 * query and body apart) and tRPC (one input object split the same way), so both transports reject the same inputs.
 */
export const parseInput = (operation: AnyOperation, raw: RawRequest): Record<string, unknown> => {
  rejectObjectParameters(raw);
  rejectMalformedText(raw);
  const input: Record<string, unknown> = {};
  if (operation.params) {
    // Only a tRPC input can leave one out (a REST path always has them): a missing field, not a resource not found.
    const missing = Object.keys(operation.params.shape).filter((name) => raw.params[name] === undefined);
    if (missing.length > 0) {
      throw new ValidationError(
        `The input needs ${missing.join(', ')}.`,
        Object.fromEntries(missing.map((name) => [name, ['required']])),
      );
    }
    const parsed = operation.params.safeParse(raw.params);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      const names = Object.keys(errors);
      if (operation.malformedParams === 404) {
        throw new NotFoundError(
          `No resource matches ${names.map((n) => `'${String(raw.params[n])}'`).join(', ')}.`,
        );
      }
      throw new ValidationError(`The path parameter ${names.join(', ')} is malformed.`, errors);
    }
    Object.assign(input, parsed.data);
  }
  if (operation.query) {
    const parsed = operation.query.safeParse(raw.query);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      throw new ValidationError(
        `The query parameter ${Object.keys(errors).join(', ')} is not valid.`,
        errors,
      );
    }
    Object.assign(input, parsed.data);
  }
  if (operation.body) {
    // A POST without a body (`curl -X POST`, fetch without one) to a route whose body is all optional fields
    // (data/model's `{usage?, options?, context?}`) means none of them; a body of another type is still refused.
    const empty =
      !raw.hasBody && raw.bodyEmpty && operation.bodyOptional ? operation.body.safeParse({}) : undefined;
    if (!raw.hasBody && !empty?.success) {
      throw new ValidationError('A JSON request body is required (Content-Type: application/json).', {
        body: ['required'],
      });
    }
    const parsed = empty ?? operation.body.safeParse(raw.body);
    if (!parsed.success) {
      // Fields keep their own names (`clientId`, `authorizationServerMetadata.token_endpoint`).
      const named = bodyNames(fieldErrors(parsed.error, 'body', operation.describeUnknownKey));
      throw new ValidationError(
        `The request body is not valid: check ${Object.keys(named).join(', ')}.`,
        named,
      );
    }
    input.body = parsed.data;
  }
  return input;
};

/** What a query parameter given twice (`?a=1&a=2`, read as an array) is told. */
export const GIVEN_ONCE = 'must be given once, as a single value';

/**
 * A query value that must appear at most once: repeated keys arrive as arrays and are rejected by name. Only a value
 * of another type (a repeated parameter) gets GIVEN_ONCE: the checks chained on it (`.max(200)`) keep their own
 * messages.
 */
export const singleQueryValue = () =>
  z.string({ error: (issue) => (issue.code === 'invalid_type' ? GIVEN_ONCE : undefined) });

/**
 * Parameters that are required although their schema lets an absent value through, because the service judges
 * them after visibility (the render query's `groupBy`): the document marks them required all the same.
 */
export const checkedByService = new WeakSet<z.ZodType>();

/**
 * A page size, 1 to `max`: text in a query string, and a number too in tRPC's JSON input, where a page size naturally
 * is one. The document states the integer, not the two forms it is read from.
 */
export const pageLimit = (max: number) => {
  const message = `an integer from 1 to ${max}`;
  return z
    .union([z.int().transform(String), singleQueryValue()], {
      error: (issue) => (Array.isArray(issue.input) ? GIVEN_ONCE : message),
    })
    .pipe(z.string().regex(/^[0-9]{1,4}$/, message))
    .transform(Number)
    .pipe(z.int().min(1, message).max(max, message))
    .optional()
    .meta({ anyOf: undefined, type: 'integer', minimum: 1, maximum: max });
};
