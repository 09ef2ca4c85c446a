import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

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
      return out;
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
