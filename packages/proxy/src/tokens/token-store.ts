import type { AuthUsage } from '@platform/core';
import { type Database, type Db, type SecretBox, schema } from '@platform/store';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { TokenSet } from './run-grant.ts';

export type TokenKey = { connectorId: string; usage: AuthUsage; revision: number; userId: string };

export type StoredToken = TokenSet & { obtainedAt: number };
/** A token as the store holds it, with the configuration revision it was obtained (or last refreshed) under. */
export type StoredRow = StoredToken & { revision: number };

/** A step of the caller's (its audit entry) that commits with the tokens' change or not at all. */
export type WithinWrite = (tx: Db) => Promise<void>;

/**
 * Tokens at rest in `connector_tokens`, access and refresh token sealed by the SecretBox. A token outlives the
 * configuration it was obtained under (docs/connector-auth.md, rule 4: only deleting the connector resets cached
 * tokens): `read` gives the newest of a connector usage and user whatever its revision, and the next token obtained,
 * under the configuration of the day, replaces it.
 */
export type TokenStore = {
  read(key: TokenKey): Promise<StoredRow | undefined>;
  write(key: TokenKey, token: StoredToken, within?: WithinWrite): Promise<void>;
  /** Drops one user's tokens of a connector usage, whatever the revision (authorization code logout). */
  removeUser(connectorId: string, usage: AuthUsage, userId: string): Promise<void>;
};

export const createTokenStore = (database: Database, secrets: SecretBox): TokenStore => ({
  async read(key) {
    const t = schema.connectorTokens;
    const rows = await database.db
      .select()
      .from(t)
      .where(and(eq(t.connectorId, key.connectorId), eq(t.usage, key.usage), eq(t.userId, key.userId)))
      .orderBy(desc(t.revision))
      .limit(1);
    const row = rows[0];
    if (!row) return undefined;
    try {
      return {
        accessToken: secrets.open(row.accessToken),
        refreshToken: row.refreshToken === null ? undefined : secrets.open(row.refreshToken),
        tokenType: row.tokenType,
        expiresAt: row.expiresAt.getTime(),
        obtainedAt: row.updatedAt.getTime(),
        revision: row.revision,
      };
    } catch {
      // A row sealed with a key no longer configured is as good as no row: fetch a new token.
      return undefined;
    }
  },
  async write(key, token, within) {
    const t = schema.connectorTokens;
    const values = {
      ...key,
      accessToken: secrets.seal(token.accessToken),
      refreshToken: token.refreshToken === undefined ? null : secrets.seal(token.refreshToken),
      tokenType: token.tokenType,
      expiresAt: new Date(token.expiresAt),
      updatedAt: new Date(token.obtainedAt),
    };
    await database.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx
        .insert(t)
        .values(values)
        .onConflictDoUpdate({
          target: [t.connectorId, t.usage, t.revision, t.userId],
          set: {
            accessToken: values.accessToken,
            refreshToken: values.refreshToken,
            tokenType: values.tokenType,
            expiresAt: values.expiresAt,
            updatedAt: values.updatedAt,
          },
        });
      // This one replaces those obtained under an earlier configuration.
      await tx
        .delete(t)
        .where(
          and(
            eq(t.connectorId, key.connectorId),
            eq(t.usage, key.usage),
            eq(t.userId, key.userId),
            lt(t.revision, key.revision),
          ),
        );
      await within?.(tx);
    });
  },
  async removeUser(connectorId, usage, userId) {
    const t = schema.connectorTokens;
    await database.db
      .delete(t)
      .where(and(eq(t.connectorId, connectorId), eq(t.usage, usage), eq(t.userId, userId)));
  },
});
