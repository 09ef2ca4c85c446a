import { z } from 'zod';
import { uuid } from './scalars.ts';

/** Who made a change: the token's issuer and subject. */
export const AuditActor = z
  .strictObject({ issuer: z.string(), subject: z.string().min(1) })
  .meta({ id: 'AuditActor' });

export const AuditTargetType = z.enum([
  'connector',
  'connectorAuthorization',
  'template',
  'tag',
  'media',
  'subscription',
  'dataFile',
  'secrets',
]);

/** What a change touched; `environment` is the environment's technical name, `subscriptionId` its subscription's guid. */
export const AuditTarget = z
  .strictObject({
    type: AuditTargetType,
    id: z.string(),
    environment: z.string().optional(),
    subscriptionId: uuid().optional(),
  })
  .meta({ id: 'AuditTarget' });

/** One field's change; a secret's sides are keyed fingerprints (`sha256:<8 hex>`), never the value. */
export const AuditFieldChange = z
  .strictObject({ from: z.unknown().optional(), to: z.unknown().optional() })
  .meta({ id: 'AuditFieldChange' });

/** One entry of the audit trail (docs/audit.md); also an element of a data file's `auditEntries`. */
export const AuditEntry = z
  .strictObject({
    id: uuid(),
    at: z.iso.datetime({ offset: true }),
    actor: AuditActor,
    action: z.string().min(1).max(100),
    outcome: z.enum(['success', 'denied']),
    target: AuditTarget,
    sourceAddress: z.string(),
    traceId: z.string(),
    changes: z.record(z.string(), AuditFieldChange),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = z
  .strictObject({
    data: z.array(AuditEntry),
    pageSize: z.int32(),
    links: z.strictObject({ nextPage: z.string().nullable() }),
  })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPage>;
