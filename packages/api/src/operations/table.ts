import { adminOperations } from './admin.ts';

/** Every operation the platform serves; drives REST, tRPC and OpenAPI alike. */
export const operations = [...adminOperations] as const;
