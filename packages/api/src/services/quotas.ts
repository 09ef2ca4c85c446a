import { QuotaExceededError } from '@platform/core';
import { type Db, type EnvironmentRow, findSubscriptionById, insertWithinQuota } from '@platform/store';
import type { ServiceContext } from './context.ts';

/** What one environment may hold (docs/environment-api.md, "Quotas"): each bounds a listing and the table behind it. */
export const ENVIRONMENT_CAPS = { tags: 1_000, connectors: 1_000, media: 50_000 } as const;

type Capped = keyof typeof ENVIRONMENT_CAPS;

/** Runs `insert` while the environment holds fewer than its cap of `kind`; else 409 `QUOTA_EXCEEDED`. */
export const withinEnvironmentCap = <T>(
  ctx: ServiceContext,
  kind: Capped,
  environment: EnvironmentRow,
  insert: (db: Db) => Promise<T>,
): Promise<T> => {
  const max = ENVIRONMENT_CAPS[kind];
  return insertWithinQuota(
    ctx.database.db,
    { kind, environmentId: environment.id },
    max,
    () => new QuotaExceededError(`${kind}PerEnvironment`, max, `${kind} per environment`),
    insert,
  );
};

/**
 * Runs `insert` while the environment's subscription holds fewer templates, over all its environments, than its
 * `maxTemplates`; else 409 `QUOTA_EXCEEDED` naming `maxTemplates`. A `maxTemplates` of 0 (the data file's default
 * when the field is left out) sets no quota.
 */
export const withinTemplateQuota = async <T>(
  ctx: ServiceContext,
  environment: EnvironmentRow,
  insert: (db: Db) => Promise<T>,
): Promise<T> => {
  const { db } = ctx.database;
  const max = (await findSubscriptionById(db, environment.subscriptionId))?.maxTemplates ?? 0;
  if (max <= 0) return insert(db);
  return insertWithinQuota(
    db,
    { kind: 'templates', subscriptionId: environment.subscriptionId },
    max,
    () => new QuotaExceededError('maxTemplates', max, "subscription's template"),
    insert,
  );
};
