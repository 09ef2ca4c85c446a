import { type AuthType, sealedObjectPaths } from '@platform/core';
import { and, eq, sql } from 'drizzle-orm';
import { connectorAuth } from '../../schema/environment-api.ts';
import { SecretOpenError } from '../../secret-box.ts';
import type { Db, SecretBox } from '../../types.ts';

const typesWithSealedObjects = (Object.entries(sealedObjectPaths) as [AuthType, readonly string[]][]).filter(
  ([, paths]) => paths.length > 0,
);

/**
 * Moves fields that are sealed at rest now (core's `sealedObjectPaths`: JWT bearer `jwtPayload` and
 * `requestBodyParams`) out of the clear `public_data` of rows written before, into their sealed `secret_data`.
 * Runs at every start after the SQL migrations (sealing needs SECRETS_KEY, which SQL cannot see); a row already
 * moved is not touched again. Returns how many rows it rewrote.
 */
export const sealClearAuthObjects = async (db: Db, secrets: SecretBox): Promise<number> => {
  let moved = 0;
  for (const [type, paths] of typesWithSealedObjects) {
    const keys = sql.join(
      paths.map((path) => sql`${path}`),
      sql`, `,
    );
    moved += await db.transaction(async (tx) => {
      const rows = await tx
        .select({
          id: connectorAuth.id,
          publicData: connectorAuth.publicData,
          secretData: connectorAuth.secretData,
        })
        .from(connectorAuth)
        .where(and(eq(connectorAuth.type, type), sql`${connectorAuth.publicData} ?| array[${keys}]`))
        .for('update');
      let rewritten = 0;
      for (const row of rows) {
        const publicData = { ...row.publicData };
        let opened: Record<string, unknown>;
        try {
          opened = JSON.parse(secrets.open(row.secretData)) as Record<string, unknown>;
        } catch (error) {
          // Sealed under a key this server does not hold (reported at start): left as it is for a start that has it.
          if (error instanceof SecretOpenError) continue;
          throw error;
        }
        for (const path of paths) {
          if (publicData[path] === undefined) continue;
          opened[path] = publicData[path];
          delete publicData[path];
        }
        await tx
          .update(connectorAuth)
          .set({ publicData, secretData: secrets.seal(JSON.stringify(opened)) })
          .where(eq(connectorAuth.id, row.id));
        rewritten++;
      }
      return rewritten;
    });
  }
  return moved;
};
