export { deleteConnector } from './delete.ts';
export { getConnector } from './get.ts';
export { listConnectors } from './list.ts';
export { patchConnector } from './patch.ts';
export { publishConnector } from './publish.ts';
export { republishConnector } from './republish.ts';
export type * from './schemas.ts';
