import type { SharedHeadersBody } from '@platform/core';

export type { SharedHeaderNames } from '@platform/core';

import type { ConnectorInput } from '../connectors/schemas.ts';

export type SetSharedHeadersInput = ConnectorInput & { body: SharedHeadersBody };
