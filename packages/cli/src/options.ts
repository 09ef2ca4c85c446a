import {
  AuthType,
  type AuthType as AuthTypeT,
  AuthUsage,
  type AuthUsage as AuthUsageT,
} from '@platform/core';
import type { Command } from 'commander';
import { UsageError } from './errors.ts';
import { resolveTarget, type Target } from './target.ts';

/** The options that name where a connector lives; every environment-API command takes them. */
export type TargetOptions = {
  connectorId?: string;
  environment?: string;
  baseUrl?: string;
  /** `true` for a bare `-t`, as the platform's CLI takes it (its default tenant). */
  tenant?: string | true;
};

export const addConnectorIdOption = (command: Command, what: string): Command =>
  command.option('--connectorId <id>', what);

export const addTargetOptions = (command: Command): Command =>
  addTenantOption(
    command
      .option('-e, --environment <name>', 'technical name of the environment, e.g. acme-prod')
      .option(
        '-b, --baseUrl <url>',
        'base address of the platform API: https://<environment>.<domain>/<prefix> (http only for localhost)',
      ),
  );

/** `-t`, then `-b` against `-e`; call once the required options are known to be there. */
export const targetOf = (options: TargetOptions): Target => {
  checkTenant(options.tenant);
  return resolveTarget(options.environment ?? '', options.baseUrl ?? '');
};

export const addAuthUsageOption = (command: Command): Command =>
  command.option('--usage <usage>', 'authorization usage: browser or server (also --authUsage)');

/**
 * `-t, --tenant`: the platform's own CLI picks its login tenant with it. Accepted so its command lines run
 * unchanged; this CLI's token does not depend on it (docs/connector-cli.md).
 */
export const addTenantOption = (command: Command): Command =>
  command.option('-t, --tenant [tenant]', 'accepted for the platform CLI: dev or prod; has no effect here');

export const checkTenant = (tenant: string | true | undefined): void => {
  if (tenant === undefined || tenant === true || tenant === 'dev' || tenant === 'prod') return;
  throw new UsageError(`-t ${tenant} is not a tenant; use -t prod or -t dev, or leave it out`);
};

/** `--enabled true|false` and the like, as the platform's CLI spells booleans (any case). */
export const parseBooleanOption = (flag: string, value: string | undefined): boolean | undefined => {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new UsageError(`${flag} must be true or false, got "${value}"; use ${flag} true or ${flag} false`);
};

/**
 * First check of every command: all required options present. The message names every missing one at once,
 * so a user fixes the command line in one go.
 */
export const requireOptions = (command: string, present: ReadonlyArray<readonly [unknown, string]>): void => {
  const missing = present.filter(([value]) => value === undefined || value === '').map(([, flag]) => flag);
  if (missing.length === 0) return;
  const list = missing.join(', ');
  throw new UsageError(
    `missing required option${missing.length > 1 ? 's' : ''} ${list}; see connector-cli ${command} --help`,
  );
};

export const parseAuthUsage = (value: string): AuthUsageT => {
  const parsed = AuthUsage.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`-au must be browser or server, got "${value}"; use -au browser or -au server`);
};

export const parseAuthType = (value: string): AuthTypeT => {
  const parsed = AuthType.safeParse(value);
  if (parsed.success) return parsed.data;
  const near = AuthType.options.find((type) => type.toLowerCase() === value.toLowerCase());
  const hint = near
    ? `use -at ${near} (the value is case-sensitive)`
    : `use one of ${AuthType.options.join(', ')}`;
  throw new UsageError(`-at "${value}" is not an authorization type; ${hint}`);
};
