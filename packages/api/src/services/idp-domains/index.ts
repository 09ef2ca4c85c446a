import { getIdpDomains } from './get.ts';
import { setIdpDomains } from './set.ts';

export { getIdpDomains } from './get.ts';
export type { GetIdpDomainsInput, SetIdpDomainsInput } from './schemas.ts';
export { setIdpDomains } from './set.ts';

export const idpDomains = { get: getIdpDomains, set: setIdpDomains } as const;
