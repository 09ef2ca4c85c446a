// oidc-provider ships no types; these are the few parts the login test uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Saved = { save(): Promise<string> };
  type DeviceCodeEntity = Saved & {
    accountId?: string;
    grantId?: string;
    scope?: string;
    authTime?: number;
    [key: string]: unknown;
  };
  type GrantEntity = Saved & { addOIDCScope(scope: string): void };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    DeviceCode: {
      findByUserCode(
        userCode: string,
        options?: { ignoreExpiration?: boolean },
      ): Promise<DeviceCodeEntity | undefined>;
    };
    Grant: new (properties: {
      accountId: string;
      clientId: string;
    }) => GrantEntity;
  }
}
