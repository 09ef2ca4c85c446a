import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AuthType } from '@platform/core';
import { UsageError } from './errors.ts';

/** A connector project's package.json, as far as the CLI reads it; every field is checked where it is used. */
export type ProjectPackage = {
  dir: string;
  file: string;
  json: Record<string, unknown>;
  config: Record<string, unknown>;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const exists = async (path: string): Promise<boolean> => {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * Reads `<project>/package.json`. `explicit` says whether the user named the project: then it must exist;
 * the default `.` may be any directory, and then there is nothing to read (`undefined`).
 */
export const readProject = async (
  project: string,
  explicit: boolean,
): Promise<ProjectPackage | undefined> => {
  const dir = resolve(project);
  const file = join(dir, 'package.json');
  if (!(await exists(file))) {
    if (!explicit) return undefined;
    const what = (await exists(dir)) ? `has no package.json` : `does not exist`;
    throw new UsageError(
      `the project directory ${project} ${what}; pass the directory of your connector project`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${file} is not valid JSON (${reason}); fix the file`);
  }
  if (!isRecord(json)) throw new UsageError(`${file} must hold a JSON object; fix the file`);
  const config = json.config === undefined ? {} : json.config;
  if (!isRecord(config)) throw new UsageError(`"config" in ${file} must be an object; fix the file`);
  return { dir, file, json, config };
};

/** See docs/connector-cli.md: a type used with `-at` must be listed in the descriptor's `config.supportedAuth`. */
export const checkSupportedAuth = (project: ProjectPackage, type: AuthType): void => {
  const listed = project.config.supportedAuth;
  if (listed === undefined) {
    throw new UsageError(
      `${project.file} has no config.supportedAuth; add "supportedAuth": ["${type}"] to its "config", then publish the connector again`,
    );
  }
  if (!Array.isArray(listed) || !listed.every((entry) => typeof entry === 'string')) {
    throw new UsageError(
      `config.supportedAuth in ${project.file} must be an array of type names; fix the file`,
    );
  }
  if (!listed.includes(type)) {
    const current = listed.length === 0 ? 'none' : listed.join(', ');
    throw new UsageError(
      `-at ${type} is not in config.supportedAuth of ${project.file} (${current}); add it there and publish the connector again, or pick a listed type`,
    );
  }
};
