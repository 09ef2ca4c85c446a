import { z } from 'zod';
import { LicenseType, SubscriptionEnvironmentType, SubscriptionStatus, SubscriptionType } from './enums.ts';
import { int32, int64, nonEmpty, nullableString, uri, uuid } from './scalars.ts';

/** See docs/admin-api.md. */
export const BasicSubscriptionModel = z
  .strictObject({
    id: int32(),
    guid: uuid(),
    name: nonEmpty(),
    displayName: nonEmpty(),
    isActive: z.boolean(),
    clientId: uuid(),
    clientName: nullableString(),
    isPlatformPricebook: z.boolean(),
    subscriptionType: SubscriptionType,
    pricebookVersion: nonEmpty(),
    isWhitelabeled: z.boolean(),
  })
  .meta({ id: 'BasicSubscriptionModel' });
export type BasicSubscriptionModel = z.infer<typeof BasicSubscriptionModel>;

export const SubscriptionEnvironmentModel = z
  .strictObject({
    id: int32(),
    guid: uuid(),
    name: nullableString(),
    region: nullableString(),
    type: SubscriptionEnvironmentType.optional(),
    usedStorage: int64(),
    backOfficeUri: uri().nullable().optional(),
  })
  .meta({ id: 'SubscriptionEnvironmentModel' });
export type SubscriptionEnvironmentModel = z.infer<typeof SubscriptionEnvironmentModel>;

export const SubscriptionLicenseModel = z
  .strictObject({
    id: nonEmpty(),
    coresTotal: int32().nullable().optional(),
    coresUsed: int32(),
    url: uri().nullable().optional(),
    licenseType: LicenseType.optional(),
  })
  .meta({ id: 'SubscriptionLicenseModel' });
export type SubscriptionLicenseModel = z.infer<typeof SubscriptionLicenseModel>;

export const SubscriptionTenantInformationModel = z
  .strictObject({
    sandboxEnvironmentsTotal: int64().optional(),
    sandboxEnvironmentsUsed: int64(),
    productionEnvironmentsTotal: int64().nullable().optional(),
    productionEnvironmentsUsed: int64(),
  })
  .meta({ id: 'SubscriptionTenantInformationModel' });
export type SubscriptionTenantInformationModel = z.infer<typeof SubscriptionTenantInformationModel>;

export const ExperienceExtensions = z
  .strictObject({ isPartnerEnabled: z.boolean().nullable().optional() })
  .meta({ id: 'ExperienceExtensions' });
export type ExperienceExtensions = z.infer<typeof ExperienceExtensions>;

/** See docs/admin-api.md. */
export const SubscriptionModel = z
  .strictObject({
    id: int32(),
    name: nullableString(),
    displayName: nullableString(),
    usedRenders: int64().nullable().optional(),
    usedWatermarkedRenders: int64().nullable().optional(),
    averageRenders: int64().nullable().optional(),
    averageWatermarkedRenders: int64().nullable().optional(),
    averageRendersPeriodDays: int32(),
    maxRenders: int64().nullable().optional(),
    maxStorage: int64().nullable().optional(),
    storageUsed: int64(),
    environments: z.array(SubscriptionEnvironmentModel),
    licenses: z.array(SubscriptionLicenseModel).nullable().optional(),
    startDate: nullableString(),
    endDate: nullableString(),
    subscriptionType: SubscriptionType,
    status: SubscriptionStatus,
    clientName: nullableString(),
    billingClientContact: nullableString(),
    templateDesignerSeatsTotal: int32().nullable().optional(),
    templateDesignerSeatsUsed: int32().nullable().optional(),
    tenantInformation: SubscriptionTenantInformationModel,
    isPlatformPricebook: z.boolean(),
    pricebookVersion: nonEmpty(),
    subscriptionTier: nonEmpty(),
    maxTemplates: int32(),
    isWhitelabeled: z.boolean(),
    overdueInvoices: z.boolean(),
    isPublisherEnabled: z.boolean(),
    isStudioEnabled: z.boolean(),
    isExperienceEnabled: z.boolean().nullable().optional(),
    maxSpaces: int32().nullable().optional(),
    experienceExtensions: ExperienceExtensions.optional(),
  })
  .meta({ id: 'SubscriptionModel' });
export type SubscriptionModel = z.infer<typeof SubscriptionModel>;
