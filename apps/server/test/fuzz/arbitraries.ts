import fc from 'fast-check';

/** A JSON schema as the served OpenAPI document writes it (the subset the fuzzer reads). */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

export type Components = Record<string, Schema>;

/** Values that break naive parsers, casts and SQL: the "boundary and hostile" half of every generator. */
export const hostileStrings = [
  '',
  ' ',
  '0',
  '-1',
  '1e308',
  '99999999999999999999999',
  '-9223372036854775809',
  '2147483648',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '../../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f',
  '%',
  '%ZZ',
  '%00',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '😀🏳️‍🌈',
  '\u202egnp.exe',
  'İıſK',
  'ＡＣＭＥ-ＰＲＯＤ',
  'e\u0301',
  '\ufeffacme-prod',
  "'; drop table users; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as written
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'x'.repeat(300),
  'ß'.repeat(5000),
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  '2026-01-01T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
] as const;

export const hostileValues: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  [],
  [null],
  {},
  { __proto__: { admin: true } },
  JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
  ...hostileStrings,
];

/** A JSON value nested `depth` levels deep. */
const deep = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...hostileValues) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(deep(40), deep(2000)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  );

export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...hostileStrings) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  );

const resolve = (schema: Schema, components: Components): Schema => {
  let current = schema;
  for (let i = 0; current.$ref && i < 10; i++) {
    current = components[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
};

const stringOf = (schema: Schema): fc.Arbitrary<string> => {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  const bounds = { minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) };
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length >= bounds.minLength && s.length <= (schema.maxLength ?? 10_000));
    } catch {
      // A pattern fast-check cannot invert: plain strings of the right length.
    }
  }
  return fc.string({ ...bounds, unit: 'grapheme' });
};

/**
 * Values that follow `schema` (valid shapes, at their boundaries), mixed at a rate of about one in `hostileRate`
 * with hostile values of any type at any depth.
 */
export const fromSchema = (
  schema: Schema,
  components: Components,
  hostileRate = 8,
  depth = 0,
): fc.Arbitrary<unknown> => {
  const valid = validFromSchema(schema, components, hostileRate, depth);
  return fc.oneof({ weight: hostileRate - 1, arbitrary: valid }, { weight: 1, arbitrary: hostileValue() });
};

const validFromSchema = (
  input: Schema,
  components: Components,
  hostileRate: number,
  depth: number,
): fc.Arbitrary<unknown> => {
  const schema = resolve(input, components);
  if (depth > 6) return fc.constant(null);
  const next = (s: Schema) => fromSchema(s, components, hostileRate, depth + 1);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) {
    return fc.oneof(...alternatives.map((s) => validFromSchema(s, components, hostileRate, depth + 1)));
  }
  if (schema.allOf?.length) return validFromSchema(schema.allOf[0] ?? {}, components, hostileRate, depth);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) {
    return fc.oneof(
      ...types.map((type) => validFromSchema({ ...schema, type }, components, hostileRate, depth)),
    );
  }
  switch (types[0] ?? (schema.properties ? 'object' : undefined)) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = schema.minimum ?? -(2 ** 53 - 1);
      const max = schema.maximum ?? 2 ** 53 - 1;
      return fc.oneof(
        fc.constantFrom(min, max, Math.max(min, Math.min(max, 0))),
        fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }),
      );
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'string':
      return stringOf(schema);
    case 'array':
      return fc.array(next(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, next(value)]),
      );
      const record = fc.record(properties, {
        requiredKeys: (schema.required ?? []).filter((k) => k in properties),
      });
      // An unknown key now and then: models accept none (docs/admin-api.md).
      return fc
        .tuple(
          record,
          fc.option(fc.constantFrom('unknownField', '__proto__', 'constructor', ''), { freq: 6 }),
        )
        .map(([value, extra]) => (extra === null ? value : { ...(value as object), [extra]: 'x' }));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
};
