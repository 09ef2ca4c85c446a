import {
  type BasicSubscriptionModel,
  type EnvironmentType,
  LicenseType,
  type SubscriptionEnvironmentModel,
  type SubscriptionLicenseModel,
  type SubscriptionModel,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@platform/core';
import { type EnvironmentRow, type SubscriptionRow, usedStorage } from '@platform/store';

/** Inputs of the subscription services: path and query parameters, as the transports pass them. */
export type ListSubscriptionsInput = Record<string, never>;
export type GetSubscriptionInput = { subscriptionId: string };
export type GetSubscriptionRendersInput = {
  subscriptionId: string;
  groupBy?: unknown;
  top?: unknown;
  startDate?: unknown;
  endDate?: unknown;
};

/** See docs/admin-api.md; `isActive` = `status == Active` (docs/admin-api.md). */
export const toBasicSubscription = (row: SubscriptionRow): BasicSubscriptionModel => ({
  id: row.id,
  guid: row.guid,
  name: row.name,
  displayName: row.displayName,
  isActive: row.status === 'Active',
  clientId: row.clientId,
  clientName: row.clientName,
  isPlatformPricebook: row.isPlatformPricebook,
  subscriptionType: row.subscriptionType as SubscriptionType,
  pricebookVersion: row.pricebookVersion,
  isWhitelabeled: row.isWhitelabeled,
});

export const toSubscriptionEnvironment = (row: EnvironmentRow): SubscriptionEnvironmentModel => ({
  id: row.id,
  guid: row.guid,
  name: row.name,
  region: row.region,
  type: row.type as EnvironmentType,
  usedStorage: usedStorage(row),
  backOfficeUri: row.backOfficeUri,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nullableInt = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

/**
 * Licenses are stored as the JSON the data file held (null: no list). Only what SubscriptionLicenseModel allows is
 * passed on; `licenseType`, optional but not nullable, is left out when it is not set.
 */
export const parseLicenses = (text: string | null): SubscriptionLicenseModel[] | null => {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  return value.filter(isRecord).flatMap((license): SubscriptionLicenseModel[] => {
    if (typeof license.id !== 'string' || license.id === '') return [];
    const type = LicenseType.safeParse(license.licenseType);
    return [
      {
        id: license.id,
        coresTotal: nullableInt(license.coresTotal),
        coresUsed: nullableInt(license.coresUsed) ?? 0,
        url: typeof license.url === 'string' ? license.url : null,
        ...(type.success ? { licenseType: type.data } : {}),
      },
    ];
  });
};

export type SubscriptionFigures = {
  environments: EnvironmentRow[];
  used: { renders: number; watermarkedRenders: number };
  average: { renders: number; watermarkedRenders: number };
  templateDesignerSeatsUsed: number;
};

/** See docs/admin-api.md with the derived fields of docs/admin-api.md. */
export const toSubscriptionModel = (
  row: SubscriptionRow,
  figures: SubscriptionFigures,
): SubscriptionModel => {
  const environments = figures.environments.map(toSubscriptionEnvironment);
  const countOf = (type: EnvironmentType) => figures.environments.filter((env) => env.type === type).length;
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    usedRenders: figures.used.renders,
    usedWatermarkedRenders: figures.used.watermarkedRenders,
    averageRenders: figures.average.renders,
    averageWatermarkedRenders: figures.average.watermarkedRenders,
    averageRendersPeriodDays: row.averageRendersPeriodDays,
    maxRenders: row.maxRenders,
    maxStorage: row.maxStorage,
    storageUsed: environments.reduce((sum, env) => sum + env.usedStorage, 0),
    environments,
    licenses: parseLicenses(row.licenses),
    startDate: row.startDate,
    endDate: row.endDate,
    subscriptionType: row.subscriptionType as SubscriptionType,
    status: row.status as SubscriptionStatus,
    clientName: row.clientName,
    billingClientContact: row.billingClientContact,
    templateDesignerSeatsTotal: row.templateDesignerSeatsTotal,
    templateDesignerSeatsUsed: figures.templateDesignerSeatsUsed,
    tenantInformation: {
      // Optional but not nullable in the specification: left out when the subscription does not set it.
      ...(row.sandboxEnvironmentsTotal === null
        ? {}
        : { sandboxEnvironmentsTotal: row.sandboxEnvironmentsTotal }),
      sandboxEnvironmentsUsed: countOf('Sandbox'),
      productionEnvironmentsTotal: row.productionEnvironmentsTotal,
      productionEnvironmentsUsed: countOf('Production'),
    },
    isPlatformPricebook: row.isPlatformPricebook,
    pricebookVersion: row.pricebookVersion,
    subscriptionTier: row.subscriptionTier,
    maxTemplates: row.maxTemplates,
    isWhitelabeled: row.isWhitelabeled,
    overdueInvoices: row.overdueInvoices,
    isPublisherEnabled: row.isPublisherEnabled,
    isStudioEnabled: row.isStudioEnabled,
    isExperienceEnabled: row.isExperienceEnabled,
    maxSpaces: row.maxSpaces,
    experienceExtensions: { isPartnerEnabled: row.isPartnerEnabled },
  };
};
