import { EnvironmentRole, SubscriptionRole } from '@platform/core';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Role codes that grant visibility (docs/authentication.md), as SQL array literals: only codes the contract defines
 * count, so an unknown string in stored data never makes anything visible (as core's access rules decide).
 * The values are the constant enum options, never input.
 */
const literal = (values: readonly string[]): SQL =>
  sql.raw(`ARRAY[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(',')}]::text[]`);

export const subscriptionRoleCodes = (): SQL => literal(SubscriptionRole.options);
export const environmentRoleCodes = (): SQL => literal(EnvironmentRole.options);
