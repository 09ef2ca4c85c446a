import type { Command } from 'commander';
import { callApi } from '../api.ts';
import type { Context } from '../context.ts';
import {
  addAuthUsageOption,
  addConnectorIdOption,
  addTargetOptions,
  parseAuthUsage,
  requireOptions,
  type TargetOptions,
  targetOf,
} from '../options.ts';
import type { RunAction } from './action.ts';

type DeleteAuthOptions = TargetOptions & { usage?: string };

export const deleteAuth = async (ctx: Context, options: DeleteAuthOptions) => {
  const { connectorId, environment, baseUrl, usage: authUsage } = options;
  requireOptions('delete-auth', [
    [connectorId, '--connectorId <id>'],
    [environment, '-e <environment>'],
    [baseUrl, '-b <baseUrl>'],
    [authUsage, '-au <browser|server>'],
  ]);
  const usage = parseAuthUsage(authUsage!);
  const target = targetOf(options);
  const query = new URLSearchParams({ authUsage: usage });
  const result = await callApi(ctx, {
    method: 'DELETE',
    url: `${target.environmentApi}/connectors/${encodeURIComponent(connectorId!)}/auth?${query}`,
  });
  if (!result.sent) return;
  ctx.out.result(`Removed the ${usage} authorization of connector ${connectorId} in ${target.environment}.`, {
    connectorId,
    usage,
    deleted: true,
  });
};

export const registerDeleteAuth = (program: Command, run: RunAction) => {
  const command = program
    .command('delete-auth')
    .summary("remove a connector's authorization for one usage")
    .description(
      'Remove the authorization a connector uses for one usage (browser or server) in one environment.',
    );
  addConnectorIdOption(command, 'id of the published connector');
  addTargetOptions(command);
  addAuthUsageOption(command);
  command
    .addHelpText(
      'after',
      `
Example:
  connector-cli delete-auth --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx -au server`,
    )
    .action((options: DeleteAuthOptions) => run((ctx) => deleteAuth(ctx, options)));
  return command;
};
