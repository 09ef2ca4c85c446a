import type { Database, SecretBox } from '@platform/store';
import type { Logger } from 'pino';

/** Who calls: the verified token's subject and roles (CONTRACT.md §3). */
export type Caller = {
  readonly userId: string;
  readonly roles: ReadonlySet<string>;
};

/** Everything a transport-free service needs; built once per request by each transport. */
export type ServiceContext = {
  readonly database: Database;
  readonly secrets: SecretBox;
  readonly caller: Caller;
  readonly now: Date;
  readonly traceId: string;
  readonly log: Logger;
  readonly serverVersion: string;
  readonly publicUrl: string;
};

/** Every service has this shape; its input is path and query parameters flattened, plus `body` when it takes one. */
export type Service<I, O> = (ctx: ServiceContext, input: I) => Promise<O>;

export const isOperator = (caller: Caller): boolean => caller.roles.has('platform:admin');
