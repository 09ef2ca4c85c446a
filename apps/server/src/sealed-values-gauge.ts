import { setTimeout as delay } from 'node:timers/promises';
import { countSealedValues, type Database, type SealedCounts, type SecretBox } from '@platform/store';
import { Gauge, type Registry } from 'prom-client';

/** Scrapes within this share one count: a scraper polling every second costs one query per five. */
const FRESH_MS = 5_000;
/** The longest a scrape waits for a count (a database slow to answer): then the last figures, the count goes on. */
const WAIT_MS = 1_000;

/**
 * `platform_sealed_values{key_id}`: how many stored values each key id seals (every configured id, 0 when it seals
 * none, and any other id found), counted in the database on scrape. The figures are the database's, so every
 * replica shows the same ones. While the database does not answer (or takes over a second), the last figures stand.
 */
export const registerSealedValuesGauge = (
  registry: Registry,
  database: Database,
  secrets: SecretBox,
): void => {
  let counts: SealedCounts = {};
  let countedAt = Number.NEGATIVE_INFINITY;
  let counting: Promise<void> | undefined;
  const refresh = () => {
    counting ??= countSealedValues(database.db, secrets)
      .then((fresh) => {
        counts = fresh;
        countedAt = performance.now();
      })
      .catch(() => {
        // the database is out of reach: the previous figures stand
      })
      .finally(() => {
        counting = undefined;
      });
    return counting;
  };
  new Gauge({
    name: 'platform_sealed_values',
    help: 'Stored secret values sealed under each key id (SECRETS_KEY); the old key may be dropped once it shows 0.',
    labelNames: ['key_id'],
    registers: [registry],
    async collect() {
      if (performance.now() - countedAt > FRESH_MS && database.available()) {
        await Promise.race([refresh(), delay(WAIT_MS, undefined, { ref: false })]);
      }
      this.reset();
      // Never counted yet (the database slow at the first scrape): no figures rather than zeros, which would say
      // an old key may be dropped.
      if (countedAt === Number.NEGATIVE_INFINITY) return;
      for (const id of secrets.keyIds) this.set({ key_id: id }, counts[id] ?? 0);
      for (const [id, count] of Object.entries(counts)) {
        if (!secrets.keyIds.includes(id)) this.set({ key_id: id }, count);
      }
    },
  });
};
