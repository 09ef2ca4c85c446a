// oidc-provider ships no types and @types/oidc-provider is not installed: the little the tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type KoaContextWithOIDC = {
    oidc: {
      params: Record<string, string | undefined>;
      client: { clientId: string };
      provider: Provider;
    };
    body: unknown;
  };

  export type ClientCredentialsToken = { save(): Promise<string>; expiration: number; jti: string };

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    registerGrantType(
      name: string,
      handler: (ctx: KoaContextWithOIDC) => Promise<void>,
      params?: string[],
      dupes?: string[],
    ): void;
    on(event: string, listener: (...args: never[]) => void): void;
    ClientCredentials: new (fields: {
      client: unknown;
      scope?: string;
    }) => ClientCredentialsToken;
  }

  export const errors: {
    InvalidGrant: new (description: string) => Error;
  };
  export default Provider;
}
