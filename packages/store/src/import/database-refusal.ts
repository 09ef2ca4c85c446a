import { ValidationError } from '@platform/core';

/**
 * Where an import's writes are: the data file entry (or list of entries) the running statement writes, and how
 * to find the one entry a refused key names. Kept up to date by the writers, read when the database refuses.
 */
export type ImportCursor = {
  path: string;
  /** The path of the entry whose columns hold these values, when it can be told. */
  locate?: (key: Readonly<Record<string, string>>) => string | undefined;
};

type DatabaseError = { code: string; constraint?: string; detail?: string; message: string };

/** The driver's error (either backend), also when drizzle wraps it. */
const databaseErrorOf = (error: unknown): DatabaseError | undefined => {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as DatabaseError;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
};

/** The data file's words for the rules the schema enforces; other constraints are named as they are. */
const RULES: Record<string, string> = {
  users_pkey: 'duplicate user id',
  subscriptions_pkey: 'duplicate subscription id',
  subscriptions_guid_unique: 'duplicate subscription guid',
  environments_pkey: 'duplicate environment id',
  environments_guid_unique: 'duplicate environment guid',
  environments_technical_name_lower: 'duplicate technical name (names are case-insensitive)',
  memberships_subscription_id_user_id_pk:
    'duplicate member: the user is a member of this subscription already',
  memberships_user_id_users_id_fk: 'the member is not a user: no user has this id',
  environment_roles_environment_id_user_id_pk: 'duplicate environment role of a member',
  environment_roles_user_id_users_id_fk: 'the member is not a user: no user has this id',
  environment_roles_environment_id_environments_id_fk: 'not an environment of this subscription',
  external_idp_domains_subscription_id_domain_pk: 'duplicate identity-provider domain',
};

/** `Key (a, b)=(1, x) already exists.` → { a: '1', b: 'x' } */
const keyOf = (detail: string | undefined): Record<string, string> => {
  const match = /Key \((.+?)\)=\((.*)\)/.exec(detail ?? '');
  if (!match?.[1] || match[2] === undefined) return {};
  const columns = match[1].split(', ');
  const values = match[2].split(', ');
  if (columns.length !== values.length) return {};
  return Object.fromEntries(columns.map((column, i) => [column, values[i] ?? '']));
};

/**
 * A database refusal during an import, told in the data file's terms: the path of the entry being written and
 * the rule it broke (with the database's own detail), as a ValidationError. Undefined for other errors.
 */
export const databaseRefusal = (error: unknown, cursor: ImportCursor): ValidationError | undefined => {
  const refused = databaseErrorOf(error);
  // Class 22 (data exceptions) and 23 (integrity constraints) are about the data; others are the database's own.
  if (!refused || !/^2[23]/.test(refused.code)) return undefined;
  const key = keyOf(refused.detail);
  const path = cursor.locate?.(key) ?? cursor.path;
  const rule = (refused.constraint && RULES[refused.constraint]) ?? refused.message;
  const detail = refused.detail ? ` (${refused.detail.replace(/\.$/, '')})` : '';
  return new ValidationError(`${path}: ${rule}${detail}. Nothing was imported.`, {
    [path]: [`${rule}${detail}`],
  });
};
