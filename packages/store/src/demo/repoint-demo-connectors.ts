import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import type { Database } from '../types.ts';

/**
 * The demo connectors of a development server (apps/server, docs/demo-connectors.md) call its stand-in API. A later start on another address (PORT, HOST): the demo connectors published earlier still name the stand-in of
 * the earlier address. Their `baseUrl` option and their token endpoint are pointed at `origin` again; only values
 * that name a stand-in (`http://…/dev/stand-in…`) are touched, so a connector the user changed is left alone.
 * Returns how many connectors were repointed.
 */
export const repointDemoConnectors = async (database: Database, origin: string): Promise<number> => {
  const base = `${origin}/dev/stand-in`;
  return database.db.transaction(async (tx) => {
    const moved = await queryRows<{ id: string }>(
      tx,
      sql`update connectors
          set options = jsonb_set(options, '{baseUrl}', to_jsonb(${base}::text))
          where options->>'baseUrl' ~ '^http://[^/]+/dev/stand-in$' and options->>'baseUrl' <> ${base}
          returning id`,
    );
    if (moved.length === 0) return 0;
    const ids = moved.map((row) => row.id);
    await tx.execute(
      sql`update connector_auth
          set public_data = jsonb_set(public_data, '{tokenEndpoint}', to_jsonb(${`${base}/oauth/token`}::text))
          where connector_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
            and public_data->>'tokenEndpoint' ~ '^http://[^/]+/dev/stand-in/oauth/token$'`,
    );
    return moved.length;
  });
};
