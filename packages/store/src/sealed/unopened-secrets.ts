import { sql } from 'drizzle-orm';
import { queryRows } from '../query-rows.ts';
import { SecretOpenError, sealedUnderPrefix } from '../secret-box.ts';
import type { Db, SecretBox } from '../types.ts';
import { countSealedValues, type SealedCounts } from './count-sealed-values.ts';
import { holdsValue, SEALED_COLUMNS } from './sealed-columns.ts';

/** Stored values SECRETS_KEY cannot open, by the key id that sealed them (never a key or a value). */
export type UnopenedSecrets = {
  /** Key ids SECRETS_KEY does not hold, with how many values each seals. */
  missing: SealedCounts;
  /** Key ids SECRETS_KEY holds under another key than the one that sealed their values. */
  mismatched: string[];
  message: string;
};

/** One value sealed under `keyId` by this version, if any. */
const oneSealedUnder = async (db: Db, keyId: string): Promise<string | undefined> => {
  for (const sealed of SEALED_COLUMNS) {
    const column = sql.identifier(sealed.column);
    const [row] = await queryRows<{ sealed: string }>(
      db,
      sql`select ${column} as sealed from ${sql.identifier(sealed.table)}
          where ${holdsValue(sealed)} and ${column} like ${`${sealedUnderPrefix(keyId)}%`} limit 1`,
    );
    if (row) return row.sealed;
  }
  return undefined;
};

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * Compares the keys of `secrets` (SECRETS_KEY) with every value stored sealed (sealed-columns.ts): values under a key
 * id it does not hold, and key ids it holds with other bytes than those that sealed (one value of each is opened).
 * Undefined when it opens them all. Every process that holds the keys runs it before it serves
 * (docs/configuration.md, "Secrets keys"), and refuses to start when something is found.
 */
export const findUnopenedSecrets = async (
  db: Db,
  secrets: SecretBox,
): Promise<UnopenedSecrets | undefined> => {
  const counts = await countSealedValues(db, secrets);
  const missing = Object.fromEntries(Object.entries(counts).filter(([id]) => !secrets.keyIds.includes(id)));
  const mismatched: string[] = [];
  for (const id of secrets.keyIds) {
    if (!counts[id]) continue;
    const sample = await oneSealedUnder(db, id);
    if (sample === undefined) continue;
    try {
      secrets.open(sample);
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      mismatched.push(id);
    }
  }
  if (Object.keys(missing).length === 0 && mismatched.length === 0) return undefined;
  const sentences: string[] = [];
  if (Object.keys(missing).length > 0) {
    const total = Object.values(missing).reduce((sum, count) => sum + count, 0);
    const list = Object.entries(missing)
      .map(([id, count]) => `${id} (${plural(count, 'value')})`)
      .join(', ');
    sentences.push(
      `${plural(total, 'stored secret value')} ${total === 1 ? 'is' : 'are'} sealed under key ids SECRETS_KEY does ` +
        `not hold: ${list}. Add those keys back to SECRETS_KEY (id:base64, after the key that seals), or run ` +
        'platform-server rotate-secrets while SECRETS_KEY still holds them, before dropping them.',
    );
  }
  if (mismatched.length > 0) {
    sentences.push(
      `SECRETS_KEY's ${mismatched.length === 1 ? 'key' : 'keys'} ${mismatched.join(', ')} ${mismatched.length === 1 ? 'is' : 'are'} ` +
        'not the key that sealed the values stored under that id: give each id the key it had when it sealed them.',
    );
  }
  return { missing, mismatched, message: sentences.join(' ') };
};
