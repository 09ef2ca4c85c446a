import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { type AuthType, authDataSchemas, formatPath } from '@platform/core';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type AuthDefaults, prefill } from './auth-prefill.ts';
import { UsageError } from './errors.ts';

/** The name a configuration may be given (`--name`, or `name` in the data file). */
export const configurationName = z.string().trim().min(1).max(200);

const isYaml = (path: string): boolean => ['.yaml', '.yml'].includes(extname(path).toLowerCase());

/** The fields a type's data takes, for messages that say what is allowed. */
const fieldsOf = (type: AuthType): string[] => [...Object.keys(authDataSchemas[type].shape), 'name'];

/** What is written at `path` of the data: `missing` when a key on the way is absent. */
const valueAt = (data: unknown, path: readonly PropertyKey[]): unknown => {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !(key in value)) return missing;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
};
const missing = Symbol('missing');

/** The kind of a value, never the value itself (it may be a secret). */
const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * One readable sentence for the first problem: unknown fields are named, a missing field says "is required", a field
 * of the wrong type says what it must be and what kind of value it holds.
 */
const describeIssue = (issue: z.core.$ZodIssue, type: AuthType, data: unknown): string => {
  const at = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => formatPath([...issue.path, key])).join(', ');
    const allowed = issue.path.length === 0 ? `; the ${type} fields are ${fieldsOf(type).join(', ')}` : '';
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${names}${allowed}; remove ${issue.keys.length > 1 ? 'them' : 'it'}`;
  }
  if (issue.code === 'invalid_type') {
    const value = valueAt(data, issue.path);
    if (value === missing || value === undefined) return `${at} is required for ${type}; add it`;
    // YAML reads `value: 12345` as a number: quoting it makes it the string it was meant to be.
    return `${at} must be a ${issue.expected}, but it is ${kindOf(value)}; write it as a ${issue.expected}${issue.expected === 'string' ? ' (quote it)' : ''}`;
  }
  return `${at || 'the data'}: ${issue.message}; fix it`;
};

/**
 * Where the parser stopped, without quoting the file: parsers quote the offending text, which may be a secret.
 */
const syntaxErrorPlace = (error: unknown): string => {
  const message = error instanceof Error ? error.message : '';
  const line = /line (\d+), column (\d+)/.exec(message);
  if (line) return `syntax error at line ${line[1]}, column ${line[2]}`;
  const position = /position (\d+)/.exec(message);
  return position ? `syntax error at position ${position[1]}` : 'syntax error';
};

/**
 * Reads `--auth-data-file` (JSON, or YAML for .yaml/.yml), merges it over the project's defaults
 * (`config.authenticationConfig`, when given) and validates the result against the type's schema
 * (docs/connector-auth.md). The data is returned as written: the server applies the schema's defaults itself.
 */
export const readAuthDataFile = async (
  path: string,
  type: AuthType,
  defaults?: AuthDefaults,
): Promise<Record<string, unknown>> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`--auth-data-file ${path} does not exist; check the path`);
    if (code === 'EISDIR')
      throw new UsageError(`--auth-data-file ${path} is a directory; pass the data file`);
    throw new UsageError(
      `--auth-data-file ${path} cannot be read (${code ?? 'unknown error'}); check its permissions`,
    );
  }
  let data: unknown;
  try {
    data = isYaml(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const format = isYaml(path) ? 'YAML' : 'JSON';
    const reason = syntaxErrorPlace(error);
    throw new UsageError(
      `--auth-data-file ${path} is not valid ${format} (${reason}); fix the file (use .yaml or .yml for YAML)`,
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UsageError(
      `--auth-data-file ${path} must hold an object with the ${type} fields; fix the file`,
    );
  }
  const merged = prefill(defaults, data as Record<string, unknown>, path);
  // The platform's own CLI lets a data file carry the configuration's `name`; it goes into the request body.
  const result = authDataSchemas[type].extend({ name: configurationName.optional() }).safeParse(merged);
  if (!result.success) {
    // A misspelt field shows up twice, as unknown and as missing: naming the unknown one points at the typo.
    const issues = result.error.issues;
    const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0];
    const message = issue === undefined ? 'is not valid' : describeIssue(issue, type, merged);
    const over = defaults === undefined ? '' : ` (merged over ${defaults.source})`;
    throw new UsageError(`--auth-data-file ${path}${over}: ${message} (see connector-cli set-auth --help)`);
  }
  return merged;
};
