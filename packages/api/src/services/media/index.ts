export { createExternalMedia, createMedia } from './create.ts';
export { getExternalMediaSubjectType, getMediaSubjectType } from './get-subject-type.ts';
export type * from './schemas.ts';
export { updateExternalMediaSubjectTypes, updateMediaSubjectTypes } from './update-subject-types.ts';
