/** The groups of the API reference, in the order it shows them; every operation names one. */
export const TAGS = {
  Service: 'Service information and availability. No token needed.',
  Subscriptions:
    'Subscriptions with quotas, licenses and usage, their render usage per environment and the identity-provider domains they allow (docs/admin-api.md).',
  Environments: 'Environments with storage and render usage (docs/admin-api.md).',
  Users: 'Users of a subscription with their roles; owners and admins only (docs/authentication.md).',
  'Render usage': 'Render events reported by the rendering services (token role platform:ingest).',
  Operations: 'Operator tasks: importing a data file (docs/data-file.md).',
  Audit: 'Who changed what, when and from where: the audit trail of every change (docs/audit.md).',
  Connectors:
    'Publishing and managing connectors of an environment (docs/environment-api.md, docs/connector-cli.md).',
  'Connector authorization':
    'How a connector authenticates to external APIs, per usage; shared headers; the per-user authorization-code login (docs/connector-auth.md).',
  'Connector proxy':
    "The connector runtime's requests to external APIs, with credentials injected server-side (docs/connector-proxy.md).",
  'Connector runtime':
    "Running a published connector's methods in the platform's sandbox, and its activity (docs/connector-runtime.md).",
  Templates: 'Templates of an environment, with their documents and tags (docs/environment-api.md).',
  Tags: 'Tags of an environment, assigned to templates (docs/environment-api.md).',
  Vision: 'Vision subject types of an environment and of its media (docs/environment-api.md).',
} as const;

export type Tag = keyof typeof TAGS;
