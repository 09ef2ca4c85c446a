import type { z } from 'zod';
import type { MultipartForm } from '../operations/operation.ts';

type ToSchema = (schema: z.ZodType, io: 'input' | 'output') => Record<string, unknown>;

/**
 * The `multipart/form-data` request body of a form (operations/operation.ts MultipartForm): its file parts as binary
 * strings, each text part as JSON text whose schema is the field's (OpenAPI 3.1's `contentMediaType` and
 * `contentSchema`), with the limits in words.
 */
export const multipartContent = (form: MultipartForm, toSchema: ToSchema) => {
  const MiB = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`;
  const properties: Record<string, unknown> = {
    [form.fileField]: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      minItems: 1,
      maxItems: form.maxFiles,
      description: `One part per file, each with its file name and Content-Type: at most ${MiB(form.maxFileBytes)} each and ${MiB(form.maxTotalBytes)} in all (413 past either).`,
    },
  };
  const encoding: Record<string, unknown> = { [form.fileField]: { contentType: '*/*' } };
  for (const [name, field] of Object.entries(form.fields.shape)) {
    const schema = field as z.ZodType;
    const inner = (schema._zod.def as { innerType?: z.ZodType }).innerType ?? schema;
    const description = schema.description ?? inner.description;
    properties[name] = {
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: toSchema(inner, 'input'),
      ...(description ? { description: `JSON text. ${description}` } : {}),
    };
    encoding[name] = { contentType: 'application/json' };
  }
  return { schema: { type: 'object', required: [form.fileField], properties }, encoding };
};
