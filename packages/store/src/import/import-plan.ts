import type { DataFile } from '@platform/core';

/** Which per-subscription lists the file states; a list the file leaves out keeps what is stored. */
export type Replaces = {
  environments: boolean;
  licenses: boolean;
  members: boolean;
  externalIdpDomains: boolean;
};

/** The parsed file plus what parsing alone cannot tell: which optional lists were present in the input. */
export type ImportPlan = {
  file: DataFile;
  replaces: Replaces[];
};

const has = (value: unknown, key: string): boolean =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, key);

/** Defaults fill in omitted lists during parsing; this reads the raw input to see which were really there. */
export const planImport = (input: unknown, file: DataFile): ImportPlan => {
  const rawSubscriptions = has(input, 'subscriptions')
    ? ((input as { subscriptions: unknown[] }).subscriptions ?? [])
    : [];
  return {
    file,
    replaces: file.subscriptions.map((_, index) => {
      const raw = rawSubscriptions[index];
      return {
        environments: has(raw, 'environments'),
        licenses: has(raw, 'licenses'),
        members: has(raw, 'members'),
        externalIdpDomains: has(raw, 'externalIdpDomains'),
      };
    }),
  };
};
