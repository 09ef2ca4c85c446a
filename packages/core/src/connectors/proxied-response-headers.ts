/**
 * What every response of the connector proxy carries, its own errors included, whichever route or adapter writes
 * it: the target's answer is served from the platform's origin, so it must not run there as a page (sandbox: no
 * scripts, an opaque origin) nor be sniffed into one.
 */
export const proxiedResponseHeaders = {
  'content-security-policy': 'sandbox',
  'x-content-type-options': 'nosniff',
} as const;
