import type { Command } from 'commander';
import { callApi } from '../api.ts';
import { readConnectorProject } from '../connector-project.ts';
import type { Context } from '../context.ts';
import { UsageError } from '../errors.ts';
import { addConnectorIdOption, addTargetOptions, requireOptions, type TargetOptions } from '../options.ts';
import { readProject } from '../project.ts';
import { resolveTarget } from '../target.ts';
import type { RunAction } from './action.ts';

const publishHelp = `
Project layout (the directory given as [project], default the current one):
  package.json
    name          connector name (config.name overrides it, e.g. for a scoped package name)
    version       connector version
    description   optional
    main          the built connector script, a JavaScript file (default: dist/index.js)
    config.type             "media" or "data"
    config.allowedDomains   hosts the connector may call: ["api.example.com", "*.example.com"]
    config.supportedAuth    authorization types set-auth may configure, e.g. ["staticKey"]
    config.options          optional {key: value}
    config.proxyOptions     optional {"forwardedHeaders": false}
    config.iconUrl, config.apiVersion   optional
  dist/index.js   (or whatever "main" names): built before publishing, e.g. with npm run build

Without --connectorId a new connector is published (POST) and its id printed; with --connectorId
that connector is republished (PUT) with the same body.

Examples:
  connector-cli publish ./my-connector -e acme-prod -b https://acme-prod.example.com/grafx
  connector-cli publish -e acme-prod -b https://acme-prod.example.com/grafx --connectorId <id>
  connector-cli publish -e acme-prod -b http://acme-prod.localhost:8080/grafx --dry-run`;

type PublishOptions = TargetOptions;

export const publish = async (ctx: Context, project: string | undefined, options: PublishOptions) => {
  requireOptions('publish', [
    [options.environment, '-e <environment>'],
    [options.baseUrl, '-b <baseUrl>'],
  ]);
  const target = resolveTarget(options.environment!, options.baseUrl!);
  const dir = project ?? '.';
  const pkg = await readProject(dir, true);
  if (pkg === undefined)
    throw new UsageError(`no package.json in ${dir}; run publish in a connector project`);
  const { body, scriptPath } = await readConnectorProject(pkg);
  const { script, ...rest } = body;
  const republish = options.connectorId !== undefined;
  const connectors = `${target.environmentApi}/connectors`;
  const result = await callApi(ctx, {
    method: republish ? 'PUT' : 'POST',
    url: republish ? `${connectors}/${encodeURIComponent(options.connectorId!)}` : connectors,
    body,
    // The script can be large; the dry run shows its size instead.
    shownBody: { ...rest, script: `<${scriptPath}: ${Buffer.byteLength(script)} bytes>` },
  });
  if (!result.sent) return;
  const data = (result.data ?? {}) as Record<string, unknown>;
  const id = typeof data.id === 'string' ? data.id : options.connectorId;
  ctx.out.result(
    `${republish ? 'Republished' : 'Published'} connector ${body.name} ${body.version} to ${target.environment}: id ${id}`,
    result.data,
  );
};

export const registerPublish = (program: Command, run: RunAction) => {
  const command = program
    .command('publish')
    .summary('publish a connector project to an environment')
    .description("Publish (or republish) a connector from its project's package.json and built script.")
    .argument('[project]', 'connector project directory', undefined);
  addConnectorIdOption(command, 'republish this connector instead of publishing a new one');
  addTargetOptions(command);
  command
    .addHelpText('after', publishHelp)
    .action((project: string | undefined, options: PublishOptions) =>
      run((ctx) => publish(ctx, project, options)),
    );
  return command;
};
