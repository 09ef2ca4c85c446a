import { getEnvironment } from './get.ts';
import { listEnvironments } from './list.ts';
import { getEnvironmentRenders } from './renders.ts';

export { getEnvironment } from './get.ts';
export { listEnvironments } from './list.ts';
export { getEnvironmentRenders } from './renders.ts';
export type { GetEnvironmentInput, GetEnvironmentRendersInput, ListEnvironmentsInput } from './schemas.ts';

export const environments = {
  list: listEnvironments,
  get: getEnvironment,
  renders: getEnvironmentRenders,
} as const;
