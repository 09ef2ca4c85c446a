import { z } from 'zod';

export const EnvironmentType = z
  .enum(['Development', 'Sandbox', 'Production'])
  .meta({ id: 'EnvironmentType' });
export type EnvironmentType = z.infer<typeof EnvironmentType>;

export const SubscriptionEnvironmentType = z
  .enum(['Development', 'Sandbox', 'Production'])
  .meta({ id: 'SubscriptionEnvironmentType' });
export type SubscriptionEnvironmentType = z.infer<typeof SubscriptionEnvironmentType>;

export const LicenseType = z.enum(['Production', 'Failover', 'Sandbox']).meta({ id: 'LicenseType' });
export type LicenseType = z.infer<typeof LicenseType>;

export const SubscriptionStatus = z.enum(['Inactive', 'Active']).meta({ id: 'SubscriptionStatus' });
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const SubscriptionType = z.enum(['OnPremises', 'Saas']).meta({ id: 'SubscriptionType' });
export type SubscriptionType = z.infer<typeof SubscriptionType>;

export const SubscriptionMembershipType = z
  .enum(['Invitation', 'Federated'])
  .meta({ id: 'SubscriptionMembershipType' });
export type SubscriptionMembershipType = z.infer<typeof SubscriptionMembershipType>;

/** docs/admin-api.md. */
export const UserStatus = z.enum(['Active', 'Pending', 'Disabled']).meta({ id: 'UserStatus' });
export type UserStatus = z.infer<typeof UserStatus>;

/** docs/authentication.md. */
export const SubscriptionRole = z.enum(['SubscriptionOwner', 'SubscriptionAdmin', 'SubscriptionMember']);
export type SubscriptionRole = z.infer<typeof SubscriptionRole>;
export const EnvironmentRole = z.enum(['EnvironmentAdmin', 'TemplateDesigner', 'ContentUser']);
export type EnvironmentRole = z.infer<typeof EnvironmentRole>;
/** The token roles that grant something (docs/authentication.md); any other role a token carries grants nothing. */
export const TokenRole = z.enum([
  'platform:read',
  'platform:write',
  'platform:admin',
  'platform:ingest',
  'connector:server',
  'platform:metrics',
]);
export type TokenRole = z.infer<typeof TokenRole>;

/** Order of environment types in every listing (docs/admin-api.md). */
export const environmentTypeOrder: Record<EnvironmentType, number> = {
  Production: 0,
  Sandbox: 1,
  Development: 2,
};
