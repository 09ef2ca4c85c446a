/**
 * Pages the platform serves to browsers (the API reference, the development issuer's sign-in) may not be framed by
 * another site: a framed page can be overlaid to trick a click (a sign-in, a "Try it out" with a pasted token).
 * `frame-ancestors` for current browsers, `X-Frame-Options` for the others.
 */
export const noFramingHeaders = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
} as const;
