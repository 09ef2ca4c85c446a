import { sql } from 'drizzle-orm';
import { type ImportSummary, importDataFile } from '../import/import-data-file.ts';
import { queryRows } from '../query-rows.ts';
import { seedEnvironmentDemo } from '../repos/environment/demo.ts';
import type { Database } from '../types.ts';
import { demoDataFile } from './demo-data-file.ts';

/**
 * Loads the demo data set into a database without subscriptions; leaves any other database alone, so a
 * restart never mixes demo rows into real data. Returns what was imported, or undefined when nothing was.
 */
export const seedDemoData = (database: Database, now: Date): Promise<ImportSummary | undefined> =>
  // Replicas starting together on one PostgreSQL (DEMO_DATA=true on each): one loads, the others then find it loaded.
  database.withAdvisoryLock('platform:demo-data', () => seedOnce(database, now));

const seedOnce = async (database: Database, now: Date): Promise<ImportSummary | undefined> => {
  const [row] = await queryRows<{ present: boolean }>(
    database.db,
    sql`select exists (select 1 from subscriptions) as present`,
  );
  if (row?.present) return undefined;
  const summary = await importDataFile(database, demoDataFile({ now }), { demo: true });
  // Connectors, templates and tags have no place in a data file: the environment API's own demo adds them.
  await seedEnvironmentDemo(database, now);
  return summary;
};
