import { type Db, type ImportSummary, recordLocalChange } from '@platform/store';

/** `data.import` of a file imported by `platform-server import` (docs/audit.md), in the import's transaction. */
export const localImportAudit = async (tx: Db, summary: ImportSummary): Promise<void> => {
  await recordLocalChange(tx, {
    action: 'data.import',
    target: { type: 'dataFile', id: 'platform-server import' },
    changes: Object.fromEntries(Object.entries(summary).map(([kind, count]) => [kind, { to: count }])),
  });
};
