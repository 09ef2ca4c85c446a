import { z } from 'zod';
import { dateTime, int64, nonEmpty } from './scalars.ts';

/** See docs/admin-api.md. */
export const EnvironmentRenderDetail = z
  .strictObject({ name: nonEmpty(), renders: int64() })
  .meta({ id: 'EnvironmentRenderDetail' });
export type EnvironmentRenderDetail = z.infer<typeof EnvironmentRenderDetail>;

export const EnvironmentRenderModel = z
  .strictObject({
    date: dateTime(),
    totalRenders: int64(),
    totalWatermarkedRenders: int64(),
    renderDetail: z.array(EnvironmentRenderDetail),
  })
  .meta({ id: 'EnvironmentRenderModel' });
export type EnvironmentRenderModel = z.infer<typeof EnvironmentRenderModel>;

/** See docs/admin-api.md. */
export const EnvironmentRenderInformation = z
  .strictObject({
    name: z.string().nullable().optional(),
    renders: int64(),
    watermarkedRenders: int64(),
  })
  .meta({ id: 'EnvironmentRenderInformation' });
export type EnvironmentRenderInformation = z.infer<typeof EnvironmentRenderInformation>;

export const SubscriptionRendersModel = z
  .strictObject({
    date: dateTime(),
    totalRenders: int64(),
    totalWatermarkedRenders: int64(),
    environments: z.array(EnvironmentRenderInformation),
  })
  .meta({ id: 'SubscriptionRendersModel' });
export type SubscriptionRendersModel = z.infer<typeof SubscriptionRendersModel>;
