import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, join, relative } from 'node:path';
import { formatPath, PublishConnectorBody } from '@platform/core';
import { UsageError } from './errors.ts';
import type { ProjectPackage } from './project.ts';

/** Where the script is when package.json has no `main`: the usual output directory of a bundler. */
export const DEFAULT_SCRIPT = 'dist/index.js';

/** Body field → where the developer writes it in package.json, so messages point into their file. */
const sourceOf: Record<string, string> = {
  name: 'config.name (or name)',
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

const readScript = async (project: ProjectPackage): Promise<{ path: string; script: string }> => {
  const main = project.json.main;
  if (main !== undefined && (typeof main !== 'string' || main.trim() === '')) {
    throw new UsageError(`"main" in ${project.file} must be the path of the built connector script; fix it`);
  }
  const path = main ?? DEFAULT_SCRIPT;
  if (isAbsolute(path) || relative(project.dir, join(project.dir, path)).startsWith('..')) {
    throw new UsageError(`"main" in ${project.file} must be a path inside the project, got ${path}`);
  }
  if (['.ts', '.mts', '.cts', '.tsx'].includes(extname(path))) {
    throw new UsageError(
      `"main" in ${project.file} points to TypeScript source ${path}; build the connector and point "main" at the built .js file`,
    );
  }
  let script: string;
  try {
    script = await readFile(join(project.dir, path), 'utf8');
  } catch {
    const where =
      main === undefined ? `${DEFAULT_SCRIPT} (no "main" in package.json)` : `${path} (its "main")`;
    throw new UsageError(
      `the connector script ${where} does not exist in ${project.dir}; build the connector first, or set "main" to the built file`,
    );
  }
  if (script.trim() === '')
    throw new UsageError(`the connector script ${path} is empty; build the connector first`);
  return { path, script };
};

/**
 * The publish body from a connector project (docs/environment-api.md): package.json supplies name, version, description
 * and `config.*`; the script is the file `main` names (default `dist/index.js`). Validated before any request.
 */
export const readConnectorProject = async (
  project: ProjectPackage,
): Promise<{ body: PublishConnectorBody; scriptPath: string }> => {
  const { json, config } = project;
  const { path, script } = await readScript(project);
  const candidate = {
    name: config.name ?? json.name,
    description: json.description,
    version: json.version,
    type: config.type,
    iconUrl: config.iconUrl,
    options: config.options,
    script,
    apiVersion: config.apiVersion,
    allowedDomains: config.allowedDomains,
    proxyOptions: config.proxyOptions,
    supportedAuth: config.supportedAuth ?? [],
  };
  const defined = Object.fromEntries(Object.entries(candidate).filter(([, value]) => value !== undefined));
  const parsed = PublishConnectorBody.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [field, ...rest] = issue?.path ?? [];
    const where = `${sourceOf[String(field)] ?? String(field)}${rest.length > 0 ? formatPath(['', ...rest]) : ''}`;
    const what =
      issue?.code === 'invalid_type' && issue.input === undefined
        ? 'is required'
        : (issue?.message ?? 'is invalid');
    throw new UsageError(
      `${where} in ${project.file}: ${what}; fix package.json (see connector-cli publish --help)`,
    );
  }
  return { body: parsed.data, scriptPath: path };
};
