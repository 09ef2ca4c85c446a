import type { AuthType } from '@platform/core';
import { UsageError } from './errors.ts';
import type { ProjectPackage } from './project.ts';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What `config.authenticationConfig.<type>` of package.json gives a data file: defaults, and keys it must add. */
export type AuthDefaults = { source: string; defaults: Json; required: { field: string; key: string }[] };

/**
 * The platform's CLI writes JWT-bearer claims and body parameters as lists of options:
 * `[{key, value?, required?, ui?}]`. An option with a `value` is a default; a `required` one must come from the
 * data file. An object (`{claim: value}`) is taken as defaults as it is.
 */
const optionList = (
  value: unknown,
  where: string,
  field: string,
  required: AuthDefaults['required'],
): Json => {
  if (isRecord(value)) return value;
  if (!Array.isArray(value))
    throw new UsageError(`${where} must be a list of {key, value} options; fix package.json`);
  const defaults: Json = {};
  value.forEach((option, i) => {
    if (!isRecord(option) || typeof option.key !== 'string' || option.key === '') {
      throw new UsageError(`${where}[${i}] needs a "key"; fix package.json`);
    }
    if (option.value !== undefined) defaults[option.key] = option.value;
    else if (option.required === true) required.push({ field, key: option.key });
  });
  return defaults;
};

/**
 * The defaults `config.authenticationConfig.<type>` sets for `-at <type>` (docs/connector-cli.md), or undefined when
 * the project sets none. The data file wins over them, key by key.
 */
export const authDefaultsOf = (
  project: ProjectPackage | undefined,
  type: AuthType,
): AuthDefaults | undefined => {
  const all = project?.config.authenticationConfig;
  if (project === undefined || all === undefined) return undefined;
  if (!isRecord(all))
    throw new UsageError(`config.authenticationConfig in ${project.file} must be an object; fix it`);
  const entry = all[type];
  if (entry === undefined) return undefined;
  const source = `config.authenticationConfig.${type} of ${project.file}`;
  if (!isRecord(entry)) throw new UsageError(`${source} must be an object; fix it`);
  const required: AuthDefaults['required'] = [];
  if (type !== 'oAuth2JwtBearer') return { source, defaults: entry, required };
  const defaults: Json = { ...entry };
  for (const field of ['jwtPayload', 'requestBodyParams'] as const) {
    if (entry[field] !== undefined)
      defaults[field] = optionList(entry[field], `${source}: ${field}`, field, required);
  }
  return { source, defaults, required };
};

/** `file` over `defaults`: objects merge key by key, anything else (arrays too) is the file's. */
export const mergeOver = (defaults: Json, file: Json): Json => {
  const merged: Json = { ...defaults };
  for (const [key, value] of Object.entries(file)) {
    const base = merged[key];
    merged[key] = isRecord(base) && isRecord(value) ? mergeOver(base, value) : value;
  }
  return merged;
};

/** The data file merged over the project's defaults; a required option the file left out is a usage error. */
export const prefill = (defaults: AuthDefaults | undefined, file: Json, path: string): Json => {
  if (defaults === undefined) return file;
  const merged = mergeOver(defaults.defaults, file);
  for (const { field, key } of defaults.required) {
    const values = merged[field];
    if (!isRecord(values) || values[key] === undefined) {
      throw new UsageError(
        `--auth-data-file ${path} must give ${field}.${key}, which ${defaults.source} requires; add it`,
      );
    }
  }
  return merged;
};
