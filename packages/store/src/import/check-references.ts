import { checkIdpDomain, type FieldErrors, MAX_IDP_DOMAINS } from '@platform/core';
import type { ImportPlan } from './import-plan.ts';
import type { StoredState } from './stored-state.ts';
import { turnBudget } from './turn-budget.ts';

export type CheckedImport = {
  errors: FieldErrors;
  /** Per subscription: its identity-provider domains as stored (ASCII, lower case, duplicates collapsed). */
  idpDomains: string[][];
  /** Environment guid (lower case) → id, for every environment that exists once the import is applied. */
  environmentIds: Map<string, number>;
};

/**
 * What the schema cannot see: duplicate keys within the file, conflicts with stored rows that the import
 * leaves in place, and references (member users, environment roles, render events) that lead nowhere.
 * Errors are keyed by path in file order, so the first one is the first bad path of the file.
 */
export const checkReferences = async (
  { file, replaces }: ImportPlan,
  stored: StoredState,
): Promise<CheckedImport> => {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string) => {
    errors[path] = [...(errors[path] ?? []), message];
  };
  const firstSeen = <K>(seen: Map<K, string>, key: K, path: string, what: string) => {
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, path);
    else fail(path, `duplicate ${what}: ${earlier} has it too`);
  };

  const userIds = new Map<string, string>();
  for (const [i, user] of file.users.entries()) firstSeen(userIds, user.id, `users[${i}].id`, 'user id');

  // Environments the import keeps from the database: not restated by id, and not of a subscription whose
  // environment list the file replaces. Their guids and technical names stay taken.
  const fileEnvironmentIds = new Set(file.subscriptions.flatMap((s) => s.environments.map((e) => e.id)));
  const replacedSubscriptions = new Set(
    file.subscriptions.filter((_, i) => replaces[i]?.environments).map((s) => s.id),
  );
  const keptEnvironments = stored.environments.filter(
    (e) => !fileEnvironmentIds.has(e.id) && !replacedSubscriptions.has(e.subscriptionId),
  );
  const keptGuids = new Map(keptEnvironments.map((e) => [e.guid, e.id]));
  const keptNames = new Map(
    keptEnvironments
      .filter((e) => e.technicalName !== null)
      .map((e) => [e.technicalName!.toLowerCase(), e.id]),
  );
  const fileSubscriptionIds = new Set(file.subscriptions.map((s) => s.id));
  const otherSubscriptionGuids = new Map(
    stored.subscriptions.filter((s) => !fileSubscriptionIds.has(s.id)).map((s) => [s.guid, s.id]),
  );

  const environmentIds = new Map(keptEnvironments.map((e) => [e.guid, e.id]));
  const subscriptionIds = new Map<number, string>();
  const subscriptionGuids = new Map<string, string>();
  const envIds = new Map<number, string>();
  const envGuids = new Map<string, string>();
  const envNames = new Map<string, string>();
  const idpDomains: string[][] = [];

  file.subscriptions.forEach((subscription, i) => {
    const at = `subscriptions[${i}]`;
    firstSeen(subscriptionIds, subscription.id, `${at}.id`, 'subscription id');
    const guid = subscription.guid.toLowerCase();
    firstSeen(subscriptionGuids, guid, `${at}.guid`, 'subscription guid');
    const holder = otherSubscriptionGuids.get(guid);
    if (holder !== undefined) fail(`${at}.guid`, `already the guid of stored subscription ${holder}`);

    subscription.environments.forEach((environment, j) => {
      const path = `${at}.environments[${j}]`;
      const envGuid = environment.guid.toLowerCase();
      firstSeen(envIds, environment.id, `${path}.id`, 'environment id');
      firstSeen(envGuids, envGuid, `${path}.guid`, 'environment guid');
      const guidHolder = keptGuids.get(envGuid);
      if (guidHolder !== undefined)
        fail(`${path}.guid`, `already the guid of stored environment ${guidHolder}`);
      environmentIds.set(envGuid, environment.id);
      if (environment.technicalName !== null) {
        const name = environment.technicalName.toLowerCase();
        firstSeen(envNames, name, `${path}.technicalName`, 'technical name (names are case-insensitive)');
        const nameHolder = keptNames.get(name);
        if (nameHolder !== undefined) {
          fail(`${path}.technicalName`, `already the technical name of stored environment ${nameHolder}`);
        }
      }
    });

    const licenseIds = new Map<string, string>();
    for (const [j, license] of (subscription.licenses ?? []).entries()) {
      firstSeen(licenseIds, license.id, `${at}.licenses[${j}].id`, 'license id');
    }

    const domains = new Set<string>();
    if (subscription.externalIdpDomains.length > MAX_IDP_DOMAINS) {
      fail(`${at}.externalIdpDomains`, `at most ${MAX_IDP_DOMAINS} domains are allowed`);
    }
    subscription.externalIdpDomains.forEach((value, j) => {
      const check = checkIdpDomain(value);
      if (check.ok) domains.add(check.domain);
      else fail(`${at}.externalIdpDomains[${j}]`, check.reason);
    });
    idpDomains.push([...domains]);

    // Environment roles may name this subscription's environments only: those of the file when it states
    // the list, else the stored ones.
    const ownGuids = new Set(
      replaces[i]?.environments
        ? subscription.environments.map((e) => e.guid.toLowerCase())
        : [
            ...subscription.environments.map((e) => e.guid.toLowerCase()),
            ...keptEnvironments.filter((e) => e.subscriptionId === subscription.id).map((e) => e.guid),
          ],
    );
    const memberIds = new Map<string, string>();
    subscription.members.forEach((member, j) => {
      const path = `${at}.members[${j}]`;
      firstSeen(memberIds, member.userId, `${path}.userId`, 'member');
      if (!userIds.has(member.userId) && !stored.userIds.has(member.userId)) {
        fail(`${path}.userId`, 'no user has this id, in the file or the database');
      }
      for (const key of Object.keys(member.environmentRoles)) {
        if (!ownGuids.has(key.toLowerCase())) {
          fail(`${path}.environmentRoles.${key}`, 'not an environment of this subscription');
        }
      }
    });
  });

  // A large file holds a million events: checked a few milliseconds per event-loop turn so that the server keeps
  // answering.
  const turn = turnBudget();
  for (const [i, event] of file.renderEvents.entries()) {
    if (turn.spent()) await turn.next();
    if (!environmentIds.has(event.environmentGuid.toLowerCase())) {
      fail(`renderEvents[${i}].environmentGuid`, 'no environment has this guid, in the file or the database');
    }
  }

  return { errors, idpDomains, environmentIds };
};
