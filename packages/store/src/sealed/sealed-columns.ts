import { type SQL, sql } from 'drizzle-orm';

/** The platform_meta row that holds the development issuer's signing key, sealed (PostgreSQL only). */
export const DEV_ISSUER_KEY_META = 'dev-issuer-signing-key';

/**
 * Every column that holds sealed values, with the primary key of its table (column and SQL type), so a value can be
 * re-sealed by key and compared-and-set. A column added that holds a sealed value belongs here: the start check,
 * `/metrics` and `platform-server rotate-secrets` all read this list.
 */
export type SealedColumn = {
  readonly table: string;
  readonly column: string;
  readonly key: readonly { readonly name: string; readonly type: 'uuid' | 'text' | 'bigint' }[];
  /** Only the rows of the table that hold a sealed value here. */
  readonly where?: SQL;
};

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'connector_auth', column: 'secret_data', key: [{ name: 'id', type: 'uuid' }] },
  { table: 'connector_shared_headers', column: 'headers', key: [{ name: 'connector_id', type: 'uuid' }] },
  ...['access_token', 'refresh_token'].map(
    (column): SealedColumn => ({
      table: 'connector_tokens',
      column,
      key: [
        { name: 'connector_id', type: 'uuid' },
        { name: 'usage', type: 'text' },
        { name: 'revision', type: 'bigint' },
        { name: 'user_id', type: 'text' },
      ],
    }),
  ),
  { table: 'oauth_login_states', column: 'code_verifier', key: [{ name: 'state', type: 'text' }] },
  {
    table: 'platform_meta',
    column: 'value',
    key: [{ name: 'key', type: 'text' }],
    where: sql`${sql.identifier('key')} = ${DEV_ISSUER_KEY_META}`,
  },
];

/** `where` of a column's rows that hold a value: its own condition and not null. */
export const holdsValue = (sealed: SealedColumn): SQL =>
  sealed.where
    ? sql`${sql.identifier(sealed.column)} is not null and ${sealed.where}`
    : sql`${sql.identifier(sealed.column)} is not null`;
