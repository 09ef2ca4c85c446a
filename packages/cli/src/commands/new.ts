import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { UsageError } from '../errors.ts';
import { projectFiles } from '../scaffold/project-files.ts';
import { makeOutputFolder, writeOutput } from '../write-output.ts';
import type { RunAction } from './action.ts';

type NewOptions = { name?: string; connectorName?: string; type?: string; out?: string };

/** What npm accepts as a package name (lower case, optionally scoped). */
const packageName = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

const slug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');

const exists = async (path: string): Promise<boolean> => {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * `new [projectName] [--name X] [--type media|data] [-o dir]`: writes a project `publish` accepts as it is. Either name
 * gives the other: `new acme-weather` names the connector after the project, as a developer typing it expects.
 */
export const newProject = async (ctx: Context, projectName: string | undefined, options: NewOptions) => {
  const connectorName = options.name ?? options.connectorName ?? projectName;
  if (connectorName === undefined || connectorName.trim() === '') {
    throw new UsageError(
      'missing required option --name <name>; give the connector a name, e.g. connector-cli new --name "Acme DAM"',
    );
  }
  const type = options.type ?? 'media';
  if (type !== 'media' && type !== 'data') {
    throw new UsageError(`--type must be media or data, got "${type}"; use --type media or --type data`);
  }
  const name = projectName ?? slug(connectorName);
  if (name.length > 214 || !packageName.test(name)) {
    throw new UsageError(
      `"${name}" is not a valid npm package name for the project; give [projectName] in lower case, e.g. my-connector`,
    );
  }
  const dir = resolve(options.out ?? name.replace(/^@[^/]+\//, ''));
  if (await exists(join(dir, 'package.json'))) {
    throw new UsageError(`${dir} already holds a package.json; choose another directory with -o`);
  }
  const files = projectFiles({ packageName: name, connectorName, type });
  const written = Object.keys(files);
  if (!ctx.globals.dryRun) {
    await makeOutputFolder(dir);
    for (const [file, content] of Object.entries(files)) await writeOutput(join(dir, file), content);
  }
  const verb = ctx.globals.dryRun ? 'Would create' : 'Created';
  ctx.out.result(
    `${verb} ${type} connector project "${connectorName}" in ${dir}: ${written.join(', ')}. Edit config.allowedDomains and config.supportedAuth in package.json, then run connector-cli publish.`,
    { dryRun: ctx.globals.dryRun, dir, packageName: name, connectorName, type, files: written },
  );
};

export const registerNew = (program: Command, run: RunAction) => {
  const command = program
    .command('new')
    .summary('create a connector project')
    .description(
      'Create a connector project (package.json, tsconfig.json, connector.ts) that publish accepts as it is.',
    )
    .argument('[projectName]', 'npm package name of the project (default: from --name)', undefined)
    .option('-n, --name <name>', 'connector name: config.connectorName (default: projectName)')
    .option('--connector-name <name>', 'the same, as the platform CLI spells it')
    .option('-t, --type <type>', 'media or data (default media)')
    .option('-o, --out <dir>', 'directory to create the project in (default ./<projectName>)')
    .addHelpText(
      'after',
      `
Examples:
  connector-cli new --name "Acme DAM" --type media
  connector-cli new acme-dam
  connector-cli new acme-weather --name "Acme Weather" --type data -o ./connectors/weather`,
    )
    .action((projectName: string | undefined, options: NewOptions) =>
      run((ctx) => newProject(ctx, projectName, options)),
    );
  return command;
};
