import { asSentence, dataFileErrors, listErrors, ValidationError } from '@platform/core';
import { importAuditEntries } from '../audit/audit-file.ts';
import { markDemoData, removeDemoDataIfPresent } from '../demo/demo-marker.ts';
import { writeDemoRollups } from '../demo/write-demo-rollups.ts';
import type { Database, Db } from '../types.ts';
import { checkReferences } from './check-references.ts';
import { databaseRefusal, type ImportCursor } from './database-refusal.ts';
import { planImport } from './import-plan.ts';
import { parseDataFile } from './parse-data-file.ts';
import { loadStoredState } from './stored-state.ts';
import { EVENTS_PER_STATEMENT, PGLITE_EVENTS_PER_STATEMENT, writeEntities } from './write-data-file.ts';
import { writeRenderEvents } from './write-render-events.ts';

export type ImportSummary = {
  users: number;
  subscriptions: number;
  environments: number;
  /** Environments that did not exist before (they were given the standard subject types). */
  newEnvironments: number;
  members: number;
  renderEvents: number;
  /** Audit entries added (those already held are not counted). */
  auditEntries: number;
};

export type ImportOptions = {
  /** Called about every 10,000 rows and once at the end, with rows done and rows in the file. */
  onProgress?: (done: number, total: number) => void;
  /** The demo data set itself: marked so that the first real import replaces it (see demo-marker.ts). */
  demo?: boolean;
  /** Records the import's own audit entry (`data.import`) in its transaction, once everything is written. */
  audit?: (tx: Db, summary: ImportSummary) => Promise<void>;
};

const PROGRESS_EVERY = 10_000;

/** The message names the first bad paths in file order (docs/data-file.md); `errors` holds every one. */
const rejected = (errors: Record<string, string[]>): ValidationError =>
  new ValidationError(`${asSentence(listErrors(errors))} Nothing was imported.`, errors);

/**
 * Upserts a data file (docs/data-file.md) in one transaction: all of it or, on any error, nothing.
 * Ids are the keys; a subscription's environments, licenses, members and identity-provider domains, when the
 * file states them, replace the stored ones. Importing the same file again changes nothing.
 * A bad file throws a ValidationError whose message lists the bad paths, first first, and whose `errors` has all.
 */
export const importDataFile = async (
  database: Database,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportSummary> => {
  const parsed = await parseDataFile(input);
  if (!parsed.success) throw rejected(dataFileErrors(parsed.error, input));
  const plan = planImport(input, parsed.data);
  const { file } = plan;

  const environmentCount = file.subscriptions.reduce((n, s) => n + s.environments.length, 0);
  const memberCount = file.subscriptions.reduce((n, s) => n + s.members.length, 0);
  const total =
    file.users.length + file.subscriptions.length + environmentCount + memberCount + file.renderEvents.length;
  let done = 0;
  let reported = 0;
  const progress = (rows: number) => {
    done += rows;
    if (done - reported >= PROGRESS_EVERY) {
      reported = done;
      options.onProgress?.(done, total);
    }
  };

  const memberUserIds = [...new Set(file.subscriptions.flatMap((s) => s.members.map((m) => m.userId)))];
  // One import at a time: two overlapping files could otherwise pass their checks against the same state.
  const cursor: ImportCursor = { path: '(the data file)' };
  const summaryOf = (newEnvironments: number, auditEntries: number): ImportSummary => ({
    users: file.users.length,
    subscriptions: file.subscriptions.length,
    environments: environmentCount,
    newEnvironments,
    members: memberCount,
    renderEvents: file.renderEvents.length,
    auditEntries,
  });
  const { newEnvironments, auditAdded } = await database.withAdvisoryLock('platform:import', () =>
    database.db.transaction(async (tx) => {
      // A file that holds nothing changes nothing: it does not count as the import that replaces the demo data.
      if (!options.demo && total + file.auditEntries.length > 0) await removeDemoDataIfPresent(tx);
      const stored = await loadStoredState(tx, memberUserIds);
      const checked = await checkReferences(plan, stored);
      if (Object.keys(checked.errors).length > 0) throw rejected(checked.errors);
      try {
        const written = await writeEntities(tx, plan, checked, stored.environments, progress, cursor);
        cursor.path = 'renderEvents';
        cursor.locate = undefined;
        if (options.demo) await writeDemoRollups(tx, file.renderEvents, checked.environmentIds, progress);
        else
          await writeRenderEvents(
            tx,
            file.renderEvents,
            checked.environmentIds,
            progress,
            database.kind === 'pglite' ? PGLITE_EVENTS_PER_STATEMENT : EVENTS_PER_STATEMENT,
          );
        if (options.demo) await markDemoData(tx, new Date());
        cursor.path = 'auditEntries';
        cursor.locate = undefined;
        const auditAdded = await importAuditEntries(tx as unknown as Db, file.auditEntries);
        await options.audit?.(tx as unknown as Db, summaryOf(written.newEnvironments, auditAdded));
        return { newEnvironments: written.newEnvironments, auditAdded };
      } catch (error) {
        // The transaction rolls back either way; a refusal of the data is told by the entry it concerns.
        throw databaseRefusal(error, cursor) ?? error;
      }
    }),
  );
  options.onProgress?.(total, total);

  return summaryOf(newEnvironments, auditAdded);
};
