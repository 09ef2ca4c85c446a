import { z } from 'zod';
import { nonEmpty } from './scalars.ts';

export const Info = z.strictObject({ serverVersion: nonEmpty() }).meta({ id: 'Info' });
export const InfoResponse = z.strictObject({ data: Info }).meta({ id: 'InfoResponse' });
export type InfoResponse = z.infer<typeof InfoResponse>;
