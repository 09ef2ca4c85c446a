/** A bearer token, or a function asked before each request (so a refreshed token is picked up). */
export type TokenSource = string | (() => string | undefined);

export const authorizationHeader = (token: TokenSource | undefined): Record<string, string> => {
  const value = typeof token === 'function' ? token() : token;
  return value ? { authorization: `Bearer ${value}` } : {};
};
