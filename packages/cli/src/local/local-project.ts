import { access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { compileSource } from '../compile-source.ts';
import { CONNECTOR_SOURCE } from '../connector-project.ts';
import { UsageError } from '../errors.ts';
import { type ProjectPackage, readProject } from '../project.ts';

/** A connector project as the local commands run it: its package.json, its compiled module, its options. */
export type LocalProject = {
  project: ProjectPackage;
  /** Where `build` writes the module: `main` of package.json. */
  main: string;
  entry: string;
  type: 'media' | 'data' | undefined;
  /** `config.options` without the values left `null` (those are given per run: `-ro`, `runtime_options`). */
  options: Record<string, unknown>;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads `[project]` (default `.`, which must then hold a package.json too: a local command needs the project). As
 * the platform's CLI does, `[project]` may also name the connector's `.ts` file: its folder is then the project, and
 * that file the source compiled.
 */
export const readLocalProject = async (given: string | undefined): Promise<LocalProject> => {
  const source = given?.endsWith('.ts') ? resolve(given) : undefined;
  const dir = source === undefined ? given : dirname(source);
  const project = await readProject(dir ?? '.', true);
  if (project === undefined)
    throw new UsageError('no connector project; run the command in a project directory');
  const main = project.json.main;
  if (typeof main !== 'string' || main.trim() === '' || main.endsWith('.ts')) {
    throw new UsageError(
      `"main" in ${project.file} must name the built module (such as out/connector.js); fix package.json`,
    );
  }
  const entry = source ?? join(project.dir, CONNECTOR_SOURCE);
  try {
    await access(entry);
  } catch {
    throw new UsageError(
      source === undefined
        ? `no ${CONNECTOR_SOURCE} in ${project.dir}; the local commands compile it (connector-cli new writes one)`
        : `${given} does not exist; name the connector's .ts file, or its project folder`,
    );
  }
  const type = project.config.type;
  const declared = isRecord(project.config.options) ? project.config.options : {};
  return {
    project,
    main,
    entry,
    type: type === 'media' || type === 'data' ? type : undefined,
    options: Object.fromEntries(Object.entries(declared).filter(([, value]) => value !== null)),
  };
};

/** The connector's module, compiled from `connector.ts` as `build` writes it. */
export const compileLocal = (local: LocalProject): Promise<string> =>
  compileSource(local.entry, { strictImports: true });
