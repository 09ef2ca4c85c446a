export { createTemplate } from './create.ts';
export { deleteTemplate } from './delete.ts';
export { downloadTemplate } from './download.ts';
export { getTemplate } from './get.ts';
export { listTemplates } from './list.ts';
export type * from './schemas.ts';
export { setTemplateTags } from './set-tags.ts';
export { updateTemplate } from './update.ts';
