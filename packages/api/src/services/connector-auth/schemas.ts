import type { AuthKind, AuthUsage } from '@platform/core';
import type { ConnectorInput } from '../connectors/schemas.ts';

export type SetConnectorAuthInput = ConnectorInput & { kind: AuthKind; body: Record<string, unknown> };
export type DeleteConnectorAuthInput = ConnectorInput & { authUsage: AuthUsage };
