import { kindOfType, supportsUsage } from '@platform/core';
import type { Command } from 'commander';
import { callApi } from '../api.ts';
import { readAuthDataFile } from '../auth-data-file.ts';
import { authDefaultsOf } from '../auth-prefill.ts';
import type { Context } from '../context.ts';
import { UsageError } from '../errors.ts';
import { maskSecrets, secretValues } from '../mask.ts';
import {
  addAuthUsageOption,
  addConnectorIdOption,
  addTargetOptions,
  parseAuthType,
  parseAuthUsage,
  requireOptions,
  type TargetOptions,
  targetOf,
} from '../options.ts';
import { checkSupportedAuth, readProject } from '../project.ts';
import type { RunAction } from './action.ts';
import { setAuthHelp } from './set-auth-help.ts';

type SetAuthOptions = TargetOptions & {
  usage?: string;
  type?: string;
  authDataFile?: string;
  name?: string;
};

const describe = (data: unknown, fallback: string): string => {
  const name = typeof data === 'object' && data !== null && 'name' in data ? data.name : undefined;
  return typeof name === 'string' && name !== '' ? ` as "${name}"` : fallback;
};

export const setAuth = async (ctx: Context, project: string | undefined, options: SetAuthOptions) => {
  const { connectorId, environment, baseUrl, usage: authUsage, type: authType, authDataFile } = options;
  // The order of the checks is documented (docs/connector-cli.md): each one assumes the ones before it passed.
  requireOptions('set-auth', [
    [connectorId, '--connectorId <id>'],
    [environment, '-e <environment>'],
    [baseUrl, '-b <baseUrl>'],
    [authUsage, '-au <browser|server>'],
    [authType, '-at <type>'],
    [authDataFile, '--auth-data-file <file>'],
  ]);
  const usage = parseAuthUsage(authUsage!);
  const type = parseAuthType(authType!);
  if (!supportsUsage(type, usage)) {
    throw new UsageError(`-at ${type} supports only -au browser; use -au browser`);
  }
  const target = targetOf(options);
  const pkg = await readProject(project ?? '.', project !== undefined);
  if (pkg !== undefined) checkSupportedAuth(pkg, type);
  const data = await readAuthDataFile(authDataFile!, type, authDefaultsOf(pkg, type));
  if (options.name !== undefined && options.name.trim() === '') {
    throw new UsageError('--name is empty; give the configuration a name or leave --name out');
  }
  for (const secret of secretValues(type, data)) ctx.out.addSecret(secret);

  // `--name` wins over a `name` the data file carries.
  const { name: fileName, ...fields } = data;
  const name = options.name ?? fileName;
  const named = name === undefined ? {} : { name };
  const result = await callApi(ctx, {
    method: 'PUT',
    url: `${target.environmentApi}/connectors/${encodeURIComponent(connectorId!)}/auth/${kindOfType[type]}`,
    body: { usage, ...named, ...fields },
    shownBody: { usage, ...named, ...maskSecrets(type, fields) },
  });
  if (!result.sent) return;
  ctx.out.result(
    `Set ${usage} authorization of connector ${connectorId} in ${target.environment} to ${type}${describe(result.data, '')}.`,
    result.data,
  );
};

export const registerSetAuth = (program: Command, run: RunAction) => {
  const command = program
    .command('set-auth')
    .summary('configure how a published connector authorizes its requests')
    .description(
      'Configure the authorization a published connector uses for one usage (browser or server) in one environment.',
    )
    .argument(
      '[project]',
      'connector project directory; its package.json config.supportedAuth must list -at',
      undefined,
    );
  addConnectorIdOption(command, 'id of the published connector');
  addTargetOptions(command);
  addAuthUsageOption(command);
  command
    .option(
      '--type <type>',
      'authorization type: staticKey, oAuth2ClientCredentials, oAuth2AuthorizationCode, oAuth2ResourceOwnerPassword, oAuth2JwtBearer (also --authType)',
    )
    .option(
      '--auth-data-file <file>',
      "the type's data: JSON, or YAML for .yaml/.yml; merged over config.authenticationConfig.<type> of package.json",
    )
    .option('--name <name>', 'a name for this configuration')
    .addHelpText('after', setAuthHelp)
    .action((project: string | undefined, options: SetAuthOptions) =>
      run((ctx) => setAuth(ctx, project, options)),
    );
  return command;
};
