import { listTags as listTagRows } from '@platform/store';
import type { EnvironmentInput } from '../connectors/schemas.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';
import { type TagList, toTag } from './schemas.ts';

/** `GET .../tags`: the environment's tags by name. */
export const listTags: Service<EnvironmentInput, TagList> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  return { data: (await listTagRows(ctx.database.db, environment.id)).map(toTag) };
};
