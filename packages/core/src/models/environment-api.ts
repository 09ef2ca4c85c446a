import { z } from 'zod';
import { dateTime, uuid } from './scalars.ts';

/** Shapes docs/environment-api.md decides for templates, tags and vision. */
export const TagRef = z.strictObject({ id: uuid(), name: z.string() }).meta({ id: 'Tag' });
export type TagRef = z.infer<typeof TagRef>;

export const TagBody = z.strictObject({ name: z.string().trim().min(1).max(100) }).meta({ id: 'TagBody' });

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

export const CreateTemplateBody = z
  .strictObject({ name: z.string().trim().min(1).max(200), content: z.string().max(900_000).optional() })
  .meta({ id: 'CreateTemplateBody' });
export const UpdateTemplateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    content: z.string().max(900_000).optional(),
  })
  .meta({ id: 'UpdateTemplateBody' });
export const TemplateTagsBody = z
  .strictObject({ tagIds: z.array(uuid()).max(500) })
  .meta({ id: 'TemplateTagsBody' });

export const SubjectType = z.strictObject({ id: uuid(), name: z.string() }).meta({ id: 'SubjectType' });
export const VisionResponse = z
  .strictObject({ subjectTypes: z.array(SubjectType) })
  .meta({ id: 'VisionResponse' });

export const MediaBody = z
  .strictObject({ name: z.string().trim().min(1).max(200) })
  .meta({ id: 'MediaBody' });
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
export const MediaSubjectTypes = z
  .strictObject({ id: uuid(), subjectTypes: z.array(MediaSubjectType) })
  .meta({ id: 'MediaSubjectTypes' });
