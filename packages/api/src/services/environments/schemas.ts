import type {
  BasicEnvironmentModel,
  EnvironmentModel,
  EnvironmentStorageInformationModel,
  EnvironmentType,
} from '@platform/core';
import { type EnvironmentRow, type EnvironmentWithSubscription, usedStorage } from '@platform/store';

/** Inputs of the environment services: path and query parameters, as the transports pass them. */
export type ListEnvironmentsInput = {
  subscriptionId?: string | undefined;
  environmentName?: string | undefined;
};
export type GetEnvironmentInput = { environmentId: string };
export type GetEnvironmentRendersInput = {
  environmentId: string;
  groupBy?: unknown;
  startDate?: unknown;
  endDate?: unknown;
};

export const storageDetail = (row: EnvironmentRow): EnvironmentStorageInformationModel => ({
  assets: row.storageAssets,
  documents: row.storageDocuments,
  fonts: row.storageFonts,
  cache: row.storageCache,
  backup: row.storageBackup,
  other: row.storageOther,
});

/** See docs/admin-api.md. */
export const toBasicEnvironment = (row: EnvironmentRow): BasicEnvironmentModel => ({
  id: row.id,
  guid: row.guid,
  name: row.name,
  region: row.region,
  type: row.type as EnvironmentType,
  usedStorage: usedStorage(row),
  backOfficeUri: row.backOfficeUri,
  technicalName: row.technicalName,
});

/** See docs/admin-api.md; `renders` are the current calendar month's (docs/admin-api.md). */
export const toEnvironmentModel = (
  row: EnvironmentWithSubscription,
  renders: { renders: number; watermarkedRenders: number },
): EnvironmentModel => ({
  id: row.id,
  guid: row.guid,
  backOfficeUri: row.backOfficeUri,
  subscriptionId: row.subscriptionGuid,
  name: row.name,
  defaultName: row.defaultName,
  type: row.type as EnvironmentType,
  usedStorage: usedStorage(row),
  usedStorageDetail: storageDetail(row),
  tenantName: row.tenantName,
  region: row.region,
  renders: renders.renders,
  watermarkedRenders: renders.watermarkedRenders,
  isPlatformPricebook: row.isPlatformPricebook,
  disableCpoToPlatformRedirect: row.disableCpoToPlatformRedirect,
});
