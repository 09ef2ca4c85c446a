import type { Command } from 'commander';
import { callApi } from '../api.ts';
import type { Context } from '../context.ts';
import {
  addConnectorIdOption,
  addTargetOptions,
  requireOptions,
  type TargetOptions,
  targetOf,
} from '../options.ts';
import type { RunAction } from './action.ts';

export const deleteConnector = async (ctx: Context, options: TargetOptions) => {
  const { connectorId, environment, baseUrl } = options;
  requireOptions('delete', [
    [connectorId, '--connectorId <id>'],
    [environment, '-e <environment>'],
    [baseUrl, '-b <baseUrl>'],
  ]);
  const target = targetOf(options);
  const result = await callApi(ctx, {
    method: 'DELETE',
    url: `${target.environmentApi}/connectors/${encodeURIComponent(connectorId!)}`,
  });
  if (!result.sent) return;
  ctx.out.result(
    `Deleted connector ${connectorId} from ${target.environment}, with its authorization configurations.`,
    { connectorId, deleted: true },
  );
};

export const registerDelete = (program: Command, run: RunAction) => {
  const command = program
    .command('delete')
    .summary('delete a published connector')
    .description('Delete a published connector from an environment, with its authorization configurations.');
  addConnectorIdOption(command, 'id of the connector to delete');
  addTargetOptions(command);
  command
    .addHelpText(
      'after',
      `
Example:
  connector-cli delete --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx`,
    )
    .action((options: TargetOptions) => run((ctx) => deleteConnector(ctx, options)));
  return command;
};
