/** Inputs of the identity-provider domain services, as the transports pass them. */
export type GetIdpDomainsInput = { subscriptionId: string };
/** `body` is checked here, entry by entry (core's `normalizeIdpDomains`), so each bad entry is named. */
export type SetIdpDomainsInput = { subscriptionId: string; body: unknown };
