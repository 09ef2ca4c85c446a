export { deleteConnectorAuth } from './delete.ts';
export { listConnectorAuth } from './list.ts';
export type * from './schemas.ts';
export { setConnectorAuth } from './set.ts';
