import {
  AuthType,
  type AuthType as AuthTypeT,
  AuthUsage,
  type AuthUsage as AuthUsageT,
} from '@platform/core';
import type { Command } from 'commander';
import { UsageError } from './errors.ts';

/** The options that name where a connector lives; every environment-API command takes them. */
export type TargetOptions = {
  connectorId?: string;
  environment?: string;
  baseUrl?: string;
};

export const addConnectorIdOption = (command: Command, what: string): Command =>
  command.option('--connectorId <id>', what);

export const addTargetOptions = (command: Command): Command =>
  command
    .option('-e, --environment <name>', 'technical name of the environment, e.g. acme-prod')
    .option(
      '-b, --baseUrl <url>',
      'base address of the platform API: https://<environment>.<domain>/<prefix> (http only for localhost)',
    );

export const addAuthUsageOption = (command: Command): Command =>
  command.option('--authUsage <usage>', 'authorization usage: browser or server');

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
