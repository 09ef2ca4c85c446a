import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative } from 'node:path';
import { formatPath, PublishConnectorBody } from '@platform/core';
import { compileSource } from './compile-source.ts';
import { UsageError } from './errors.ts';
import type { ProjectPackage } from './project.ts';

/** Where the script is when package.json has no `main`: the usual output directory of a bundler. */
export const DEFAULT_SCRIPT = 'dist/index.js';
/** The connector's TypeScript entry, as the platform's CLI lays a project out. */
export const CONNECTOR_SOURCE = 'connector.ts';

/** What the command line sets over package.json (the platform CLI's publish options). */
export type PublishOverrides = {
  name?: string | undefined;
  /** `-ro Key=Value`, repeatable. */
  runtimeOptions?: readonly string[] | undefined;
  allowedDomains?: readonly string[] | undefined;
  forwardedHeaders?: boolean | undefined;
  /** A `.ts` file named as the project: compile it rather than `connector.ts`. */
  entry?: string | undefined;
};

/** Body field → where the developer writes it in package.json, so messages point into their file. */
const sourceOf: Record<string, string> = {
  name: 'config.connectorName (or -n, config.name, name)',
  description: 'description',
  version: 'version',
  type: 'config.type',
  iconUrl: 'config.iconUrl',
  options: 'config.options',
  script: 'the script file',
  apiVersion: 'config.apiVersion',
  allowedDomains: 'config.allowedDomains',
  proxyOptions: 'config.proxyOptions',
  supportedAuth: 'config.supportedAuth',
};

/** The command-line spelling of a field the command line set. */
const optionOf: Record<string, string> = {
  name: '-n',
  allowedDomains: '--proxyOption.allowedDomains',
  options: '-ro',
};

const isTypeScript = (path: string) => ['.ts', '.mts', '.cts', '.tsx'].includes(extname(path));

const isFile = async (path: string): Promise<boolean> => {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
};

/** Whether `source` exists and was changed after `built` was written. */
const isNewer = async (source: string, built: string): Promise<boolean> => {
  try {
    const [a, b] = await Promise.all([stat(source), stat(built)]);
    return a.mtimeMs > b.mtimeMs;
  } catch {
    return false;
  }
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type ConnectorScript = {
  script: string;
  from: string;
  compiled: boolean;
  /** The source changed after the build that is published (`connector.ts` newer than `main`): said, not refused. */
  olderThan?: string | undefined;
};

/**
 * The script to publish: the built file `main` names (default `dist/index.js`) when it exists; else the
 * TypeScript entry compiled (`connector.ts`, or a `.ts` file given as the project, or a `.ts` `main`).
 */
const readScript = async (project: ProjectPackage, entry: string | undefined): Promise<ConnectorScript> => {
  const main = project.json.main;
  if (main !== undefined && (typeof main !== 'string' || main.trim() === '')) {
    throw new UsageError(`"main" in ${project.file} must be the path of the built connector script; fix it`);
  }
  const path = main ?? DEFAULT_SCRIPT;
  if (isAbsolute(path) || relative(project.dir, join(project.dir, path)).startsWith('..')) {
    throw new UsageError(`"main" in ${project.file} must be a path inside the project, got ${path}`);
  }
  if (entry === undefined && !isTypeScript(path) && (await isFile(join(project.dir, path)))) {
    const script = await readFile(join(project.dir, path), 'utf8');
    if (script.trim() === '')
      throw new UsageError(`the connector script ${path} is empty; build the connector first`);
    const olderThan = (await isNewer(join(project.dir, CONNECTOR_SOURCE), join(project.dir, path)))
      ? CONNECTOR_SOURCE
      : undefined;
    return { script, from: path, compiled: false, olderThan };
  }
  const sources = [
    entry,
    isTypeScript(path) ? join(project.dir, path) : undefined,
    join(project.dir, CONNECTOR_SOURCE),
  ];
  for (const source of sources) {
    if (source === undefined || !(await isFile(source))) continue;
    const script = await compileSource(source);
    return { script, from: relative(project.dir, source) || source, compiled: true };
  }
  const built = main === undefined ? `${DEFAULT_SCRIPT} (no "main" in package.json)` : `${path} (its "main")`;
  throw new UsageError(
    `no built script ${built} and no ${CONNECTOR_SOURCE} in ${project.dir}; build the connector or add ${CONNECTOR_SOURCE}`,
  );
};

/** `-ro Key=Value` over `config.options`: keys must be options the project declares; a null one must be given. */
const runtimeOptions = (project: ProjectPackage, given: readonly string[] = []): unknown => {
  const declared = project.config.options;
  if (given.length === 0 && !isRecord(declared)) return declared;
  const options: Record<string, unknown> = isRecord(declared) ? { ...declared } : {};
  for (const pair of given) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? '' : pair.slice(0, eq);
    if (key === '') throw new UsageError(`-ro ${pair} is not Key=Value; write -ro Key=Value`);
    if (!isRecord(declared) || !Object.hasOwn(declared, key)) {
      throw new UsageError(
        `-ro ${key} is not in config.options of ${project.file}; declare it there (null marks an option -ro must give)`,
      );
    }
    options[key] = pair.slice(eq + 1);
  }
  // A required option given empty (`-ro KEY=`) is still missing, as the platform's CLI has it.
  const missing = Object.entries(options)
    .filter(
      ([key, value]) => value === null || (value === '' && isRecord(declared) && declared[key] === null),
    )
    .map(([key]) => key);
  if (missing.length > 0) {
    throw new UsageError(
      `config.options of ${project.file} requires ${missing.join(', ')}; give ${missing.map((k) => `-ro ${k}=<value>`).join(' ')}`,
    );
  }
  return options;
};

/** The SDK version the project builds against, as the platform's CLI reports it in `apiVersion`. */
export const installedSdkVersion = async (project: ProjectPackage): Promise<string | undefined> => {
  try {
    const file = join(project.dir, 'node_modules', '@chili-publish', 'studio-connectors', 'package.json');
    const version = (JSON.parse(await readFile(file, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The publish body from a connector project (docs/environment-api.md, docs/connector-cli.md): package.json supplies
 * name, version, description and `config.*`, the command line overrides name, runtime options and proxy options.
 * No `supportedAuth` in package.json sends none: the server then supports every type (publish) or keeps its list
 * (republish). Validated before any request.
 */
export const readConnectorProject = async (
  project: ProjectPackage,
  overrides: PublishOverrides = {},
): Promise<{ body: PublishConnectorBody; script: ConnectorScript }> => {
  const { json, config } = project;
  const options = runtimeOptions(project, overrides.runtimeOptions);
  const script = await readScript(project, overrides.entry);
  const proxyOptions = overrides.forwardedHeaders ? { forwardedHeaders: true } : config.proxyOptions;
  const candidate = {
    name: overrides.name ?? config.connectorName ?? config.name ?? json.name,
    description: json.description,
    version: json.version,
    type: config.type,
    iconUrl: config.iconUrl,
    options,
    script: script.script,
    apiVersion: config.apiVersion ?? (await installedSdkVersion(project)),
    allowedDomains: overrides.allowedDomains ?? config.allowedDomains,
    proxyOptions,
    supportedAuth: config.supportedAuth,
  };
  const defined = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  const parsed = PublishConnectorBody.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [field, ...rest] = issue?.path ?? [];
    const name = String(field);
    const given = { name: overrides.name, allowedDomains: overrides.allowedDomains }[name];
    const at = rest.length > 0 ? formatPath(['', ...rest]) : '';
    const what =
      issue?.code === 'invalid_type' && issue.input === undefined
        ? 'is required'
        : (issue?.message ?? 'is invalid');
    if (given !== undefined) {
      throw new UsageError(
        `${optionOf[name]}${at}: ${what}; fix the command line (see connector-cli publish --help)`,
      );
    }
    // Where a command-line option can give the field instead (the platform's own projects pass
    // --proxyOption.allowedDomains), the fix names it too.
    const orOption = optionOf[name] === undefined ? '' : ` or give ${optionOf[name]}`;
    throw new UsageError(
      `${sourceOf[name] ?? name}${at} in ${project.file}: ${what}; fix package.json${orOption} (see connector-cli publish --help)`,
    );
  }
  return { body: parsed.data, script };
};
