/**
 * The audit trail's actions (docs/audit.md): one list for the services that record them, the console's filter and
 * the bench. Plain data, no schema library, so the console can import it alone (`@platform/core/audit-actions`).
 */
export const auditActions = [
  'connector.publish',
  'connector.republish',
  'connector.update',
  'connector.delete',
  'connector.auth.set',
  'connector.auth.delete',
  'connector.sharedHeaders.set',
  'connector.authorizationCode.complete',
  'connector.authorizationCode.logout',
  'template.create',
  'template.update',
  'template.delete',
  'template.tags.set',
  'tag.create',
  'tag.update',
  'tag.delete',
  'media.subjectTypes.set',
  'subscription.idpDomains.set',
  'data.import',
  'secrets.rotate',
] as const;

export type AuditAction = (typeof auditActions)[number];
