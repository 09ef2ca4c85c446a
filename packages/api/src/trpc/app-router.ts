import type { operations } from '../operations/table.ts';
import type { buildTrpcRouter } from './router.ts';

/** The router type of the operation table; `@platform/client` builds its typed client from it. */
export type AppRouter = ReturnType<typeof buildTrpcRouter<typeof operations>>;
