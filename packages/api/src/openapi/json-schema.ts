import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/**
 * zod states an integer's width as bounds; OpenAPI states it as a format. An int32 (`z.int32()`) becomes
 * `format: int32` and an int64 (`format: int64`, bounded by JavaScript's safe integers) loses those bounds: they
 * are the runtime's limit, not the API's, and tools turn them into examples such as -9007199254740991. Bounds of
 * the API's own (`top` ≥ 1) stay.
 */
const integerFormat = (schema: JsonSchema): JsonSchema => {
  const type = schema.type;
  if (type !== 'integer' && !(Array.isArray(type) && type.includes('integer'))) return schema;
  const out = { ...schema };
  if (out.format === 'int64') {
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    return out;
  }
  if (out.minimum === INT32.min || out.maximum === INT32.max) {
    if (out.minimum === INT32.min) delete out.minimum;
    if (out.maximum === INT32.max) delete out.maximum;
    out.format ??= 'int32';
  }
  return out;
};

/**
 * Converts a zod schema to JSON Schema 2020-12 (OpenAPI 3.1's dialect), hoisting every schema that carries a
 * meta `id` into `components.schemas` and pointing at it with a `$ref`.
 */
export const createSchemaCollector = () => {
  const components: Record<string, JsonSchema> = {};
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) {
          out.$ref = `#/components/schemas/${inner.slice('#/$defs/'.length)}`;
        } else if (key !== '$schema' && key !== '$defs' && !(key === 'id' && typeof inner === 'string')) {
          // zod's meta `id` (a string) names the component; a property called `id` is a schema object and stays.
          out[key] = rewrite(inner);
        }
      }
      return integerFormat(out);
    }
    return value;
  };
  const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      reused: 'inline',
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [name, def] of Object.entries(converted.$defs ?? {})) {
      components[name] ??= rewrite(def) as JsonSchema;
    }
    return rewrite(converted) as JsonSchema;
  };
  return { components, toSchema };
};
