import { listSubjectTypes } from '@platform/store';
import type { EnvironmentInput } from '../connectors/schemas.ts';
import type { Service } from '../context.ts';
import { readEnvironment } from '../environment-access.ts';

export type GetVisionInput = EnvironmentInput & { expand?: 'allSubjectTypes' | undefined };
export type Vision = { subjectTypes: { id: string; name: string }[] };

/**
 * `GET .../vision?expand=allSubjectTypes` (docs/environment-api.md): the environment's subject types, by name; an
 * environment without any is given the standard set first. `allSubjectTypes` is the one expansion there is, so
 * the answer is the same without it.
 */
export const getVision: Service<GetVisionInput, Vision> = async (ctx, input) => {
  const { environment } = await readEnvironment(ctx, input.environment);
  return { subjectTypes: await listSubjectTypes(ctx.database.db, environment.id) };
};
