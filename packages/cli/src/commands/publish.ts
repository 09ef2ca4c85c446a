import { dirname } from 'node:path';
import type { Command } from 'commander';
import { callApi } from '../api.ts';
import { readConnectorProject } from '../connector-project.ts';
import type { Context } from '../context.ts';
import { UsageError } from '../errors.ts';
import {
  addConnectorIdOption,
  addTargetOptions,
  requireOptions,
  type TargetOptions,
  targetOf,
} from '../options.ts';
import { readProject } from '../project.ts';
import type { RunAction } from './action.ts';

const publishHelp = `
Project layout (the directory given as [project], default the current one; a path to a .ts file
names its directory and compiles that file):
  package.json
    name          package name; the connector name unless -n, config.connectorName or config.name
    version       connector version
    description   optional
    main          the built connector script (default dist/index.js); when it does not exist,
                  connector.ts is compiled with esbuild and published
    config.connectorName    the connector name (the platform CLI's field)
    config.type             "media" or "data"
    config.allowedDomains   hosts the connector may call, unless --proxyOption.allowedDomains
    config.supportedAuth    authorization types set-auth may configure, e.g. ["staticKey"];
                            left out, the server allows every type (and a republish keeps its list)
    config.options          runtime options {key: default}; null marks one -ro must give
    config.proxyOptions     optional {"forwardedHeaders": false}
    config.iconUrl, config.apiVersion   optional
  connector.ts    the connector source, compiled when there is no built script

Options of the platform's own CLI, same meaning:
  -n, --name <name>                          connector name
  -ro, --runtimeOption <Key=Value...>        runtime options, repeatable: -ro A=1 -ro B=2
  --proxyOption.allowedDomains <host...>     allowed domains, repeatable (they take what follows:
                                             put [project] before them)
  --proxyOption.forwardedHeaders             send X-Forwarded-* headers to the connector's targets

Without --connectorId a new connector is published (POST, enabled) and its id printed; with --connectorId
that connector is republished (PUT) with the same body.

Examples:
  connector-cli publish ./my-connector -e acme-prod -b https://acme-prod.example.com/grafx
  connector-cli publish ./my-connector -e acme-prod -b https://acme-prod.example.com/grafx -n "Acme DAM" \\
    -ro BASE_URL=https://dam.acme.example --proxyOption.allowedDomains dam.acme.example
  connector-cli publish -e acme-prod -b https://acme-prod.example.com/grafx --connectorId <id>
  connector-cli publish -e acme-prod -b http://acme-prod.localhost:8080/grafx --dry-run`;

type PublishOptions = TargetOptions & {
  name?: string;
  runtimeOption?: string[];
  'proxyOption.allowedDomains'?: string[];
  'proxyOption.forwardedHeaders'?: boolean;
};

export const publish = async (ctx: Context, project: string | undefined, options: PublishOptions) => {
  requireOptions('publish', [
    [options.environment, '-e <environment>'],
    [options.baseUrl, '-b <baseUrl>'],
  ]);
  if (options.name !== undefined && options.name.trim() === '') {
    throw new UsageError('-n is empty; give the connector a name or leave -n out');
  }
  const target = targetOf(options);
  // The platform's CLI also takes the path of the connector's .ts file: its directory is the project.
  const entry = project?.endsWith('.ts') ? project : undefined;
  const dir = entry === undefined ? (project ?? '.') : dirname(entry);
  const pkg = await readProject(dir, true);
  if (pkg === undefined)
    throw new UsageError(`no package.json in ${dir}; run publish in a connector project`);
  const { body, script } = await readConnectorProject(pkg, {
    name: options.name,
    runtimeOptions: options.runtimeOption,
    allowedDomains: options['proxyOption.allowedDomains'],
    forwardedHeaders: options['proxyOption.forwardedHeaders'],
    entry,
  });
  if (script.olderThan !== undefined) {
    // The platform's CLI compiles the source on every publish: one switching from it would not expect the old build.
    ctx.out.note(
      `warning: ${script.from} is older than ${script.olderThan}, which changed since: publishing that older build; run connector-cli build first to publish the change`,
    );
  }
  const republish = options.connectorId !== undefined;
  const connectors = `${target.environmentApi}/connectors`;
  const size = Buffer.byteLength(body.script);
  const result = await callApi(ctx, {
    method: republish ? 'PUT' : 'POST',
    url: republish ? `${connectors}/${encodeURIComponent(options.connectorId!)}` : connectors,
    body,
    // The script can be large; the dry run shows its size instead.
    shownBody: {
      ...body,
      script: `<${script.from}${script.compiled ? ' compiled' : ''}: ${size} bytes>`,
    },
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
    .description(
      "Publish (or republish) a connector from its project's package.json and its built script or connector.ts.",
    )
    .argument('[project]', 'connector project directory, or its connector .ts file', undefined);
  addConnectorIdOption(command, 'republish this connector instead of publishing a new one');
  addTargetOptions(command);
  command
    .option('-n, --name <name>', 'connector name (default: config.connectorName, config.name, then name)')
    .option('--runtimeOption <Key=Value...>', 'runtime option Key=Value, repeatable')
    .option(
      '--proxyOption.allowedDomains <host...>',
      'allowed domain, repeatable (default: config.allowedDomains)',
    )
    .option('--proxyOption.forwardedHeaders', 'send X-Forwarded-* headers to the targets')
    .addHelpText('after', publishHelp)
    .action((project: string | undefined, options: PublishOptions) =>
      run((ctx) => publish(ctx, project, options)),
    );
  return command;
};
