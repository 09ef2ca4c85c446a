import { getInfo } from './get.ts';
import { ping } from './ping.ts';
import { ready } from './ready.ts';

export { type GetInfoInput, getInfo } from './get.ts';
export { type PingInput, ping } from './ping.ts';
export { type ReadyInput, ready } from './ready.ts';

export const info = { get: getInfo, ping, ready } as const;
