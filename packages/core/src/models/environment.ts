import { z } from 'zod';
import { EnvironmentType } from './enums.ts';
import { int32, int64, nonEmpty, nullableString, uri, uuid } from './scalars.ts';

/** See docs/admin-api.md: every part in bytes. */
export const EnvironmentStorageInformationModel = z
  .strictObject({
    assets: int64(),
    documents: int64(),
    fonts: int64(),
    cache: int64(),
    backup: int64(),
    other: int64(),
  })
  .meta({ id: 'EnvironmentStorageInformationModel' });
export type EnvironmentStorageInformationModel = z.infer<typeof EnvironmentStorageInformationModel>;

/** See docs/admin-api.md. */
export const BasicEnvironmentModel = z
  .strictObject({
    id: int32(),
    guid: uuid(),
    name: nonEmpty(),
    region: nullableString(),
    type: EnvironmentType,
    usedStorage: int64(),
    backOfficeUri: uri().nullable().optional(),
    technicalName: nullableString(),
  })
  .meta({ id: 'BasicEnvironmentModel' });
export type BasicEnvironmentModel = z.infer<typeof BasicEnvironmentModel>;

/** See docs/admin-api.md. */
export const EnvironmentModel = z
  .strictObject({
    id: int32(),
    guid: uuid(),
    backOfficeUri: uri().nullable().optional(),
    subscriptionId: uuid(),
    name: nonEmpty(),
    defaultName: nullableString(),
    type: EnvironmentType,
    usedStorage: int64(),
    usedStorageDetail: EnvironmentStorageInformationModel,
    tenantName: nullableString(),
    region: nullableString(),
    renders: int64(),
    watermarkedRenders: int64(),
    isPlatformPricebook: z.boolean(),
    disableCpoToPlatformRedirect: z.boolean(),
  })
  .meta({ id: 'EnvironmentModel' });
export type EnvironmentModel = z.infer<typeof EnvironmentModel>;
