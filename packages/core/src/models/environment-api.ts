import { z } from 'zod';
import { dateTime, uuid } from './scalars.ts';

/** Shapes docs/environment-api.md decides for templates, tags and vision. */
export const TagRef = z.strictObject({ id: uuid(), name: z.string() }).meta({ id: 'Tag' });
export type TagRef = z.infer<typeof TagRef>;

/** A name as it is stored: surrounding whitespace removed first, then 1 to `max` characters. */
const trimmedName = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .describe(
      `Surrounding whitespace is removed before it is checked and stored; then 1 to ${max} characters.`,
    );

export const TagBody = z.strictObject({ name: trimmedName(100) }).meta({ id: 'TagBody' });

export const Template = z
  .strictObject({
    id: uuid(),
    name: z.string(),
    tags: z.array(TagRef),
    DateCreated: dateTime(),
    LastModifiedContentUtc: dateTime(),
  })
  .meta({ id: 'Template' });
export type Template = z.infer<typeof Template>;

export const TemplatePage = z
  .strictObject({
    data: z.array(Template),
    pageSize: z.int32(),
    links: z.strictObject({ nextPage: z.string().nullable() }),
  })
  .meta({ id: 'TemplatePage' });

/** Largest template document: its JSON text, in UTF-8 bytes. */
export const TEMPLATE_CONTENT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Most JSON values (object keys included) in a template document's request: what bounds the work of parsing,
 * checking and storing one (docs/environment-api.md). 655,000 `{"a":1}` objects fit in 5 MiB; they are refused.
 */
export const TEMPLATE_CONTENT_MAX_VALUES = 200_000;

/** Deepest nesting of a template document: deeper JSON would exhaust the stack of whatever walks it. */
export const TEMPLATE_CONTENT_MAX_DEPTH = 512;

/** Whether `value` nests arrays and objects at most `limit` deep; iterative, so any depth is safe to check. */
const nestsAtMost = (value: unknown, limit: number): boolean => {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return false;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return true;
};

/**
 * The template document: any JSON value (it arrives parsed from JSON), at most 5 MiB as JSON text and at most 512
 * levels deep.
 */
export const TemplateContent = z
  .unknown()
  .refine((value) => nestsAtMost(value, TEMPLATE_CONTENT_MAX_DEPTH), {
    message: `at most ${TEMPLATE_CONTENT_MAX_DEPTH} levels of nesting`,
    abort: true,
  })
  .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= TEMPLATE_CONTENT_MAX_BYTES, {
    message: 'at most 5 MiB of JSON',
  })
  .meta({ id: 'TemplateContent', description: 'The template document: any JSON value, at most 5 MiB.' });

export const CreateTemplateBody = z
  .strictObject({ name: trimmedName(200), content: TemplateContent.optional() })
  .meta({ id: 'CreateTemplateBody' });
export const UpdateTemplateBody = z
  .strictObject({
    name: trimmedName(200).optional(),
    content: TemplateContent.optional(),
  })
  .meta({ id: 'UpdateTemplateBody' });
export const TemplateTagsBody = z
  .strictObject({ tagIds: z.array(uuid()).max(500) })
  .meta({ id: 'TemplateTagsBody' });

export const SubjectType = z.strictObject({ id: uuid(), name: z.string() }).meta({ id: 'SubjectType' });
export const VisionResponse = z
  .strictObject({ subjectTypes: z.array(SubjectType) })
  .meta({ id: 'VisionResponse' });

export const MediaBody = z.strictObject({ name: trimmedName(200) }).meta({ id: 'MediaBody' });
export const Media = z.strictObject({ id: uuid(), name: z.string() }).meta({ id: 'Media' });

export const MediaSubjectType = z
  .strictObject({
    subjectTypeId: uuid(),
    name: z.string(),
    assigned: z.boolean(),
    updatedAt: dateTime().nullable(),
  })
  .meta({ id: 'MediaSubjectType' });
export const SubjectTypesUpdateBody = z
  .strictObject({
    subjectTypes: z
      .array(z.strictObject({ id: uuid(), assigned: z.boolean() }))
      .min(1)
      .max(1000),
  })
  .meta({ id: 'SubjectTypesUpdateBody' });
/** The id an external media's own source gives it: 1–256 characters, none of them a control character. */
export const ExternalMediaId = z
  .string()
  .refine((id) => {
    const length = Array.from(id).length;
    return length >= 1 && length <= 256;
  }, '1 to 256 characters')
  .regex(/^[^\p{Cc}]*$/u, 'no control characters')
  .describe('The id the media source gives the asset: 1 to 256 characters, no control characters.');

/** `id`: the media's uuid, or an external media's own id. */
export const MediaSubjectTypes = z
  .strictObject({ id: z.string(), subjectTypes: z.array(MediaSubjectType) })
  .meta({ id: 'MediaSubjectTypes' });
