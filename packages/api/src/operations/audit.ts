import { AuditPage } from '@platform/core';
import { z } from 'zod';
import { listAudit } from '../services/audit/list.ts';
import { isAuditPageToken } from '../services/audit/page-token.ts';
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from '../services/audit/schemas.ts';
import { pageLimit, singleQueryValue } from './input.ts';
import { defineOperation } from './operation.ts';

const instant = (name: string) =>
  singleQueryValue()
    .pipe(z.iso.datetime({ offset: true, error: 'an ISO 8601 date-time such as 2026-11-01T00:00:00Z' }))
    .transform((value) => new Date(value))
    .optional()
    .describe(`Only entries at or ${name} this time (ISO 8601 date-time with its offset).`);

const auditQuery = z.object({
  subscriptionId: singleQueryValue()
    .meta({ format: 'uuid' })
    .optional()
    .describe(
      "Only this subscription's entries and those of its environments (one that is not a guid names none: 404).",
    ),
  environment: singleQueryValue()
    .min(1)
    .max(253)
    .optional()
    .describe('Only entries of this environment, by its technical name (case-insensitive).'),
  actor: singleQueryValue().min(1).max(255).optional().describe('Only changes made by this subject (`sub`).'),
  action: singleQueryValue()
    .min(1)
    .max(100)
    .optional()
    .describe('Only this action, such as `connector.auth.set` (docs/audit.md lists them).'),
  from: instant('after'),
  to: instant('before'),
  limit: pageLimit(MAX_AUDIT_PAGE).describe(
    `Page size, 1 to ${MAX_AUDIT_PAGE}; default ${DEFAULT_AUDIT_PAGE}.`,
  ),
  nextPageToken: singleQueryValue()
    .max(2048)
    .refine(isAuditPageToken, { error: 'not a page token of this API' })
    .optional()
    .describe('Opaque token from links.nextPage of the previous page.'),
});

/** The audit trail (docs/audit.md). */
export const auditOperations = [
  defineOperation({
    id: 'audit.list',
    method: 'GET',
    path: '/api/v1/audit',
    summary: 'The audit trail: who changed what, when and from where, newest first',
    description:
      'Every change to what a subscription holds (connectors, their authorizations and shared headers, templates, tags, media subject types, identity-provider domains, data-file imports, secrets-key rotations), and every write refused with 403 (`outcome: denied`), newest first, a page at a time. A secret never appears: a secret field shows as a keyed fingerprint (`sha256:<8 hex>`), equal for equal values. Operators (`platform:admin`) read every entry; anyone else the entries of the subscriptions where it holds SubscriptionOwner or SubscriptionAdmin and of their environments. With `subscriptionId`: 404 when the caller cannot see the subscription, 403 when it sees it without one of those roles.',
    tag: 'Audit',
    access: 'platform:read',
    query: auditQuery,
    response: AuditPage,
    status: 200,
    errors: [400, 404],
    service: listAudit,
  }),
] as const;
