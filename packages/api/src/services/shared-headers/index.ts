export { getSharedHeaders } from './get.ts';
export type * from './schemas.ts';
export { setSharedHeaders } from './set.ts';
