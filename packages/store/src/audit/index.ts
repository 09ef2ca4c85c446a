export { createFingerprint, type Fingerprint } from './fingerprint.ts';
export {
  type AuditCursor,
  type AuditEntryRow,
  type AuditFilter,
  listAuditEntries,
} from './list-audit-entries.ts';
export {
  type AuditEntryInput,
  type AuditOutcome,
  type AuditTargetType,
  recordAudit,
} from './record-audit.ts';
export { sweepAuditEntries } from './sweep-audit-entries.ts';
