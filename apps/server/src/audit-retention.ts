import { type Database, sweepAuditEntries } from '@platform/store';
import type { Logger } from 'pino';

const EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * The audit trail's retention (AUDIT_RETENTION_DAYS, docs/audit.md): entries older than that go, at start and every
 * six hours after. Each replica sweeps; a sweep that finds nothing costs one indexed query. Returns the stop.
 */
export const startAuditRetention = (database: Database, retentionDays: number, log: Logger): (() => void) => {
  const sweep = () =>
    sweepAuditEntries(database.db, retentionDays, new Date()).then(
      (removed) => {
        if (removed > 0) log.info({ removed, retentionDays }, 'audit entries past their retention removed');
      },
      (error: unknown) => log.warn({ err: error }, 'audit retention sweep failed; it runs again later'),
    );
  void sweep();
  const timer = setInterval(sweep, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
};
