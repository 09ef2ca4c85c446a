export { createTag } from './create.ts';
export { deleteTag } from './delete.ts';
export { listTags } from './list.ts';
export { renameTag } from './rename.ts';
export type * from './schemas.ts';
