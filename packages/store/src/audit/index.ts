export { exportAuditEntries, importAuditEntries, toAuditEntry } from './audit-file.ts';
export { createFingerprint, type Fingerprint } from './fingerprint.ts';
export {
  type AuditCursor,
  type AuditEntryRow,
  type AuditFilter,
  administeredSubscriptionGuids,
  listAuditEntries,
} from './list-audit-entries.ts';
export { LOCAL_ISSUER, recordLocalChange } from './local-audit.ts';
export {
  type AuditEntryInput,
  type AuditOutcome,
  type AuditTargetType,
  recordAudit,
} from './record-audit.ts';
export { sweepAuditEntries } from './sweep-audit-entries.ts';
