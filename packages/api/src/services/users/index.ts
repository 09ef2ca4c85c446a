import { getSubscriptionUser } from './get.ts';
import { listSubscriptionUsers } from './list.ts';

export { getSubscriptionUser } from './get.ts';
export { listSubscriptionUsers } from './list.ts';
export type { GetUserInput, ListUsersInput } from './schemas.ts';

export const users = { list: listSubscriptionUsers, get: getSubscriptionUser } as const;
