import { getInfo } from './get.ts';
import { ping } from './ping.ts';

export { type GetInfoInput, getInfo } from './get.ts';
export { type PingInput, ping } from './ping.ts';

export const info = { get: getInfo, ping } as const;
