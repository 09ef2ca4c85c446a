import type { Command } from 'commander';
import { callApi } from '../api.ts';
import type { Context } from '../context.ts';
import { UsageError } from '../errors.ts';
import {
  addConnectorIdOption,
  addTargetOptions,
  parseBooleanOption,
  requireOptions,
  type TargetOptions,
  targetOf,
} from '../options.ts';
import { readProject } from '../project.ts';
import type { RunAction } from './action.ts';

type UpdateOptions = TargetOptions & { enabled?: string; default?: string; name?: string };

/** `update`: `PATCH .../connectors/{id}` with the fields given (docs/connector-cli.md). */
export const update = async (ctx: Context, project: string | undefined, options: UpdateOptions) => {
  requireOptions('update', [
    [options.connectorId, '--connectorId <id>'],
    [options.environment, '-e <environment>'],
    [options.baseUrl, '-b <baseUrl>'],
  ]);
  const enabled = parseBooleanOption('--enabled', options.enabled);
  const isDefault = parseBooleanOption('--default', options.default);
  if (options.name !== undefined && options.name.trim() === '') {
    throw new UsageError('-n is empty; give the connector a name or leave -n out');
  }
  const body = {
    ...(enabled === undefined ? {} : { enabled }),
    ...(isDefault === undefined ? {} : { default: isDefault }),
    ...(options.name === undefined ? {} : { name: options.name }),
  };
  if (Object.keys(body).length === 0) {
    throw new UsageError('nothing to update; give at least one of --enabled, --default or -n');
  }
  const target = targetOf(options);
  // The project is optional here: named, it must exist, like everywhere else.
  if (project !== undefined) await readProject(project, true);
  const result = await callApi(ctx, {
    method: 'PATCH',
    url: `${target.environmentApi}/connectors/${encodeURIComponent(options.connectorId!)}`,
    body,
  });
  if (!result.sent) return;
  const data = (result.data ?? {}) as Record<string, unknown>;
  const state = [
    `enabled ${String(data.enabled)}`,
    `default ${String(data.default)}`,
    `name "${String(data.name)}"`,
  ].join(', ');
  ctx.out.result(`Updated connector ${options.connectorId} in ${target.environment}: ${state}.`, result.data);
};

export const registerUpdate = (program: Command, run: RunAction) => {
  const command = program
    .command('update')
    .summary('enable, disable, rename a connector or make it the default')
    .description('Change the enabled state, the default flag or the name of a published connector.')
    .argument('[project]', 'connector project directory (optional; checked to exist when given)', undefined);
  addConnectorIdOption(command, 'id of the connector to update');
  addTargetOptions(command);
  command
    .option('--enabled <bool>', 'true or false')
    .option('--default <bool>', 'true or false: the connector the environment uses by default')
    .option('-n, --name <name>', 'a new display name')
    .addHelpText(
      'after',
      `
Sends PATCH {base}/api/v1/environment/{env}/connectors/{id} with the fields given.

Examples:
  connector-cli update --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx --enabled true
  connector-cli update --connectorId <id> -e acme-prod -b https://acme-prod.example.com/grafx --default true -n "Acme DAM"`,
    )
    .action((project: string | undefined, options: UpdateOptions) =>
      run((ctx) => update(ctx, project, options)),
    );
  return command;
};
