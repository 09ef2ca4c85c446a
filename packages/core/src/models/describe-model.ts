import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

/**
 * Shared checks of the model tests: a model's schema is compared with the table of the specification that
 * defines it. Only imported by `*.test.ts` files (it depends on vitest), never by the package's entry point.
 */
export type ModelTable = {
  /** A valid value holding every field of the table. */
  example: Record<string, unknown>;
  /** The table's required list. Every other field must be optional. */
  required: readonly string[];
  /** Fields the table marks nullable. Every other field must refuse null. */
  nullable?: readonly string[];
  /** Values each field must refuse: [field, value, what is wrong]. */
  invalid?: readonly (readonly [string, unknown, string])[];
  /** Values each field must accept besides the example's: [field, value, why]. */
  valid?: readonly (readonly [string, unknown, string])[];
  /** Only ProblemDetails allows properties beyond its table (docs/admin-api.md). */
  allowsExtra?: boolean;
};

type ObjectSchema = z.ZodType & { shape: Record<string, unknown> };

const without = (value: Record<string, unknown>, field: string) => {
  const { [field]: _dropped, ...rest } = value;
  return rest;
};

export const describeModel = (name: string, schema: ObjectSchema, table: ModelTable): void => {
  const accepts = (value: unknown) => schema.safeParse(value).success;
  const fields = Object.keys(table.example);
  const nullable = new Set(table.nullable ?? []);
  const required = new Set(table.required);

  describe(name, () => {
    it('has exactly the fields of its table', () => {
      expect(Object.keys(schema.shape).sort()).toEqual([...fields].sort());
      for (const field of [...required, ...nullable]) expect(fields).toContain(field);
    });

    it('accepts the full example', () => {
      const result = schema.safeParse(table.example);
      expect(result.error?.issues ?? []).toEqual([]);
    });

    it.each(fields)('requires %s exactly when the table lists it as required', (field) => {
      expect(accepts(without(table.example, field))).toBe(!required.has(field));
    });

    it('accepts a value with only the required fields', () => {
      const minimal = Object.fromEntries(
        Object.entries(table.example).filter(([field]) => required.has(field)),
      );
      expect(accepts(minimal)).toBe(true);
    });

    it.each(fields)('accepts null for %s exactly when the table says nullable', (field) => {
      expect(accepts({ ...table.example, [field]: null })).toBe(nullable.has(field));
    });

    it(table.allowsExtra ? 'accepts an extra property' : 'refuses an extra property', () => {
      expect(accepts({ ...table.example, unexpectedField: 1 })).toBe(table.allowsExtra === true);
    });

    if (table.invalid?.length) {
      it.each(table.invalid)('refuses %s = %j (%s)', (field, value) => {
        expect(accepts({ ...table.example, [field]: value })).toBe(false);
      });
    }
    if (table.valid?.length) {
      it.each(table.valid)('accepts %s = %j (%s)', (field, value) => {
        expect(accepts({ ...table.example, [field]: value })).toBe(true);
      });
    }
  });
};

/** Values every int32 field must refuse. */
export const int32Invalid = (field: string) =>
  [
    [field, 2 ** 31, 'int32 overflow'],
    [field, -(2 ** 31) - 1, 'int32 underflow'],
    [field, 1.5, 'not an integer'],
    [field, '1', 'a string'],
  ] as const;

/** Values every int64 field must refuse, and the int32 overflow it must accept. */
export const int64Invalid = (field: string) =>
  [
    [field, 1.5, 'not an integer'],
    [field, '1', 'a string'],
    [field, 2 ** 53, 'beyond what JSON numbers carry exactly'],
  ] as const;
export const int64Valid = (field: string) => [[field, 2 ** 31, 'beyond int32']] as const;

export const uuidInvalid = (field: string) =>
  [
    [field, 'not-a-uuid', 'not a uuid'],
    [field, '0b7e4f6c7b1a4c8e9f2d3a5b6c7d8e9f', 'uuid without hyphens'],
    [field, 1, 'a number'],
  ] as const;

export const uriInvalid = (field: string) =>
  [
    [field, 'not a uri', 'not a uri'],
    [field, '/relative/path', 'a relative reference'],
  ] as const;

export const dateTimeInvalid = (field: string) =>
  [
    [field, '2026-01-01', 'a date without time'],
    [field, 'yesterday', 'not a date'],
    [field, '2026-13-01T00:00:00Z', 'month 13'],
  ] as const;

export const nonEmptyInvalid = (field: string) =>
  [
    [field, '', 'empty string'],
    [field, 1, 'a number'],
  ] as const;
