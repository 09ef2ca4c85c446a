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

type Row = Record<string, unknown>;

const asRows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((row): row is Row => typeof row === 'object' && row !== null) : [];

const cell = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
};

/** A plain aligned table: readable in a terminal, and `--json` exists for scripts. */
export const table = (headers: readonly string[], rows: readonly (readonly string[])[]): string => {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
};

const listConnectors = async (ctx: Context, environmentApi: string, environment: string) => {
  const result = await callApi(ctx, { method: 'GET', url: `${environmentApi}/connectors` });
  if (!result.sent) return;
  const data =
    typeof result.data === 'object' && result.data !== null ? (result.data as Row).data : undefined;
  const rows = asRows(data);
  if (rows.length === 0) {
    ctx.out.result(`No connectors in ${environment}.`, result.data);
    return;
  }
  const body = rows.map((row) => {
    const supported = (row.supportedAuthentication ?? {}) as Row;
    return [
      cell(row.id),
      cell(row.name),
      cell(row.version),
      cell(row.type),
      cell(row.enabled),
      cell(supported.browser),
      cell(supported.server),
    ];
  });
  ctx.out.result(
    table(['ID', 'NAME', 'VERSION', 'TYPE', 'ENABLED', 'BROWSER AUTH', 'SERVER AUTH'], body),
    result.data,
  );
};

const listAuth = async (ctx: Context, environmentApi: string, connectorId: string) => {
  const result = await callApi(ctx, {
    method: 'GET',
    url: `${environmentApi}/connectors/${encodeURIComponent(connectorId)}/auth`,
  });
  if (!result.sent) return;
  const rows = asRows(result.data);
  if (rows.length === 0) {
    ctx.out.result(`Connector ${connectorId} has no authorization configured.`, result.data);
    return;
  }
  const body = rows.map((row) => [cell(row.usage), cell(row.type), cell(row.name), cell(row.updatedAt)]);
  ctx.out.result(table(['USAGE', 'TYPE', 'NAME', 'UPDATED'], body), result.data);
};

export const list = async (ctx: Context, options: TargetOptions) => {
  requireOptions('list', [
    [options.environment, '-e <environment>'],
    [options.baseUrl, '-b <baseUrl>'],
  ]);
  const target = targetOf(options);
  if (options.connectorId === undefined) await listConnectors(ctx, target.environmentApi, target.environment);
  else await listAuth(ctx, target.environmentApi, options.connectorId);
};

export const registerList = (program: Command, run: RunAction) => {
  const command = program
    .command('list')
    .summary("list an environment's connectors, or one connector's authorization")
    .description(
      'List the connectors published in an environment; with --connectorId, list that connector’s authorization configurations (never their secrets).',
    );
  addConnectorIdOption(command, 'list the authorization configurations of this connector instead');
  addTargetOptions(command);
  command
    .addHelpText(
      'after',
      `
Examples:
  connector-cli list -e acme-prod -b https://acme-prod.example.com/grafx
  connector-cli list -e acme-prod -b https://acme-prod.example.com/grafx --connectorId <id>
  connector-cli list -e acme-prod -b https://acme-prod.example.com/grafx --json`,
    )
    .action((options: TargetOptions) => run((ctx) => list(ctx, options)));
  return command;
};
