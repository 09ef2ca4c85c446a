import { adminOperations } from './admin.ts';
import { auditOperations } from './audit.ts';
import { authorizationCodeOperations } from './authorization-code.ts';
import { connectorRuntimeOperations } from './connector-runtime.ts';
import { connectorScriptOperations } from './connector-script.ts';
import { environmentOperations } from './environment.ts';

/** Every operation the platform serves; drives REST, tRPC and OpenAPI alike. */
export const operations = [
  ...adminOperations,
  ...auditOperations,
  ...environmentOperations,
  ...authorizationCodeOperations,
  ...connectorRuntimeOperations,
  ...connectorScriptOperations,
] as const;
