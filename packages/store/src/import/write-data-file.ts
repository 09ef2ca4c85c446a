import { randomUUID } from 'node:crypto';
import type { DataFileSubscription } from '@platform/core';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  environmentRoles,
  environments,
  externalIdpDomains,
  memberships,
  subjectTypes,
  subscriptions,
  users,
} from '../schema/index.ts';
import { STANDARD_SUBJECT_TYPES } from '../subject-types.ts';
import type { Db } from '../types.ts';
import type { CheckedImport } from './check-references.ts';
import type { ImportCursor } from './database-refusal.ts';
import type { ImportPlan } from './import-plan.ts';
import type { StoredEnvironment } from './stored-state.ts';
import { type TurnBudget, turnBudget } from './turn-budget.ts';
import { chunks, takeIncoming } from './upsert.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Progress = (rows: number) => void;

const ROWS_PER_STATEMENT = 1000;
export const EVENTS_PER_STATEMENT = 10_000;
/**
 * On PGlite a statement runs on the server's own thread (WebAssembly): 100 events keep each one to a few
 * milliseconds (1,000 took 20 to 40), and the import lets the event loop turn between statements (turn-budget.ts).
 */
export const PGLITE_EVENTS_PER_STATEMENT = 100;

const subscriptionRow = (s: DataFileSubscription, withLicenses: boolean) => ({
  id: s.id,
  guid: s.guid.toLowerCase(),
  name: s.name,
  // The schema keeps displayName optional; the stored model requires one, and the name is what people see.
  displayName: s.displayName ?? s.name,
  clientId: s.clientId.toLowerCase(),
  clientName: s.clientName,
  status: s.status,
  subscriptionType: s.subscriptionType,
  isPlatformPricebook: s.isPlatformPricebook,
  pricebookVersion: s.pricebookVersion,
  isWhitelabeled: s.isWhitelabeled,
  subscriptionTier: s.subscriptionTier,
  maxTemplates: s.maxTemplates,
  maxRenders: s.maxRenders,
  maxStorage: s.maxStorage,
  averageRendersPeriodDays: s.averageRendersPeriodDays,
  startDate: s.startDate,
  endDate: s.endDate,
  billingClientContact: s.billingClientContact,
  templateDesignerSeatsTotal: s.templateDesignerSeatsTotal,
  overdueInvoices: s.overdueInvoices,
  isPublisherEnabled: s.isPublisherEnabled,
  isStudioEnabled: s.isStudioEnabled,
  isExperienceEnabled: s.isExperienceEnabled,
  maxSpaces: s.maxSpaces,
  isPartnerEnabled: s.experienceExtensions.isPartnerEnabled,
  sandboxEnvironmentsTotal: s.sandboxEnvironmentsTotal,
  productionEnvironmentsTotal: s.productionEnvironmentsTotal,
  ...(withLicenses ? { licenses: s.licenses === null ? null : JSON.stringify(s.licenses) } : {}),
});

const environmentRows = (s: DataFileSubscription) =>
  s.environments.map((e) => ({
    id: e.id,
    guid: e.guid.toLowerCase(),
    subscriptionId: s.id,
    name: e.name,
    technicalName: e.technicalName,
    defaultName: e.defaultName,
    type: e.type,
    region: e.region,
    tenantName: e.tenantName,
    backOfficeUri: e.backOfficeUri,
    disableCpoToPlatformRedirect: e.disableCpoToPlatformRedirect,
    storageAssets: e.storage.assets,
    storageDocuments: e.storage.documents,
    storageFonts: e.storage.fonts,
    storageCache: e.storage.cache,
    storageBackup: e.storage.backup,
    storageOther: e.storage.other,
  }));

/** Users, subscriptions and everything a subscription owns, upserted by id inside the caller's transaction. */
export const writeEntities = async (
  tx: Tx,
  { file, replaces }: ImportPlan,
  checked: CheckedImport,
  stored: readonly StoredEnvironment[],
  progress: Progress,
  cursor: ImportCursor,
): Promise<{ newEnvironments: number }> => {
  // On PGlite every statement holds the server's thread: a turn of the event loop between them once one has run
  // a few milliseconds (turn-budget.ts).
  const turn = turnBudget();
  cursor.path = 'users';
  cursor.locate = (key) => indexPath('users', file.users, (u) => u.id === key.id);
  for (const batch of chunks(file.users, ROWS_PER_STATEMENT)) {
    if (turn.spent()) await turn.next();
    await tx
      .insert(users)
      .values(batch)
      .onConflictDoUpdate({ target: users.id, set: takeIncoming(users, ['id']) });
    progress(batch.length);
  }

  const storedEnvironmentIds = new Set(stored.map((e) => e.id));
  // Each subscription's stored environments, found once (Map.groupBy is not in Node 20).
  const storedUnder = new Map<number, StoredEnvironment[]>();
  for (const e of stored) {
    const under = storedUnder.get(e.subscriptionId);
    if (under) under.push(e);
    else storedUnder.set(e.subscriptionId, [e]);
  }
  // Environments the file lists under some subscription: one left out of its stored subscription's list moves to
  // the one that lists it, with its data (renders, templates, connectors), whichever of the two comes first.
  const listed = new Set(
    file.subscriptions.flatMap((s, i) => (replaces[i]?.environments ? s.environments.map((e) => e.id) : [])),
  );
  let newEnvironments = 0;
  for (const [i, subscription] of file.subscriptions.entries()) {
    const replace = replaces[i]!;
    const at = `subscriptions[${i}]`;
    cursor.path = at;
    cursor.locate = undefined;
    const row = subscriptionRow(subscription, replace.licenses);
    if (turn.spent()) await turn.next();
    await tx
      .insert(subscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: subscriptions.id,
        set: takeIncoming(subscriptions, replace.licenses ? ['id'] : ['id', 'licenses']),
      });

    if (replace.environments) {
      const ids = subscription.environments.map((e) => e.id);
      cursor.path = `${at}.environments`;
      cursor.locate = (key) =>
        indexPath(
          cursor.path,
          subscription.environments,
          (e) =>
            String(e.id) === key.id ||
            e.guid.toLowerCase() === key.guid ||
            (e.technicalName ?? '').toLowerCase() === key['lower(technical_name)'],
        );
      const gone = (storedUnder.get(subscription.id) ?? []).filter((e) => !listed.has(e.id)).map((e) => e.id);
      for (const batch of chunks(gone, ROWS_PER_STATEMENT)) {
        if (turn.spent()) await turn.next();
        await tx.delete(environments).where(inArray(environments.id, batch));
      }
      for (const batch of chunks(environmentRows(subscription), ROWS_PER_STATEMENT)) {
        if (turn.spent()) await turn.next();
        await tx
          .insert(environments)
          .values(batch)
          .onConflictDoUpdate({ target: environments.id, set: takeIncoming(environments, ['id']) });
      }
      // An environment the file moves here from another subscription keeps no role of that subscription's
      // members: every role belongs to a member of the environment's own subscription (docs/data-file.md), or a
      // non-member would see this subscription and the export would not give the same answers.
      if (turn.spent()) await turn.next();
      await tx
        .delete(environmentRoles)
        .where(
          and(
            inArray(
              environmentRoles.environmentId,
              sql`(select id from environments where subscription_id = ${subscription.id})`,
            ),
            notInArray(
              environmentRoles.userId,
              sql`(select user_id from memberships where subscription_id = ${subscription.id})`,
            ),
          ),
        );
      // New environments start with the standard vision subject types, as environments created by the API do.
      const created = ids.filter((id) => !storedEnvironmentIds.has(id));
      newEnvironments += created.length;
      for (const batch of chunks(created, 100)) {
        if (turn.spent()) await turn.next();
        await tx
          .insert(subjectTypes)
          .values(
            batch.flatMap((environmentId) =>
              STANDARD_SUBJECT_TYPES.map((name) => ({ id: randomUUID(), environmentId, name })),
            ),
          )
          .onConflictDoNothing();
      }
      progress(ids.length);
    }

    if (replace.externalIdpDomains) {
      cursor.path = `${at}.externalIdpDomains`;
      cursor.locate = undefined;
      if (turn.spent()) await turn.next();
      await tx.delete(externalIdpDomains).where(eq(externalIdpDomains.subscriptionId, subscription.id));
      const domains = checked.idpDomains[i] ?? [];
      if (domains.length > 0) {
        if (turn.spent()) await turn.next();
        await tx
          .insert(externalIdpDomains)
          .values(domains.map((domain, position) => ({ subscriptionId: subscription.id, domain, position })));
      }
    }

    if (replace.members) {
      cursor.path = `${at}.members`;
      cursor.locate = (key) => indexPath(cursor.path, subscription.members, (m) => m.userId === key.user_id);
      await writeMembers(tx, subscription, checked, turn);
    }
    progress(1 + subscription.members.length);
  }
  return { newEnvironments };
};

/** `list[i]` for the first entry that `matches`, when one does. */
const indexPath = <T>(list: string, entries: readonly T[], matches: (entry: T) => boolean) => {
  const index = entries.findIndex(matches);
  return index < 0 ? undefined : `${list}[${index}]`;
};

/** Memberships and environment roles of one subscription, replaced as a whole. */
const writeMembers = async (
  tx: Tx,
  subscription: DataFileSubscription,
  checked: CheckedImport,
  turn: TurnBudget,
) => {
  if (turn.spent()) await turn.next();
  await tx.delete(memberships).where(eq(memberships.subscriptionId, subscription.id));
  if (turn.spent()) await turn.next();
  await tx
    .delete(environmentRoles)
    .where(
      inArray(
        environmentRoles.environmentId,
        sql`(select id from environments where subscription_id = ${subscription.id})`,
      ),
    );
  for (const batch of chunks(subscription.members, ROWS_PER_STATEMENT)) {
    if (turn.spent()) await turn.next();
    await tx.insert(memberships).values(
      batch.map((m) => ({
        subscriptionId: subscription.id,
        userId: m.userId,
        subscriptionRoles: [...new Set(m.subscriptionRoles)],
        membershipType: m.membershipType,
      })),
    );
    const roles = batch.flatMap((m) =>
      Object.entries(m.environmentRoles)
        .filter(([, list]) => list.length > 0)
        .map(([guid, list]) => ({
          environmentId: checked.environmentIds.get(guid.toLowerCase())!,
          userId: m.userId,
          roles: [...new Set(list)],
        })),
    );
    if (roles.length === 0) continue;
    if (turn.spent()) await turn.next();
    await tx.insert(environmentRoles).values(roles);
  }
};
