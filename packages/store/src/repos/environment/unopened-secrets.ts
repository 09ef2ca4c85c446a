import { sql } from 'drizzle-orm';
import { queryRows } from '../../query-rows.ts';
import { secretKeyId } from '../../secret-box.ts';
import type { Db } from '../../types.ts';

/** Stored secrets a key does not open, with the ids of the keys that sealed them (never a key or a secret). */
export type UnopenedSecrets = {
  keyId: string;
  sealedUnder: string[];
  secrets: number;
  stored: number;
  message: string;
};

/**
 * Compares `keyBase64` (SECRETS_KEY) with the secrets users stored (connector authorizations, shared headers) by the
 * key id inside every sealed value (secret-box.ts): what it cannot open, or undefined. Cached tokens and pending
 * logins are left out: they are fetched or started again, while these are lost with the key that sealed them.
 * Both processes that hold the key run it at start (docs/configuration.md), rather than finding out at first use.
 */
export const findUnopenedSecrets = async (
  db: Db,
  keyBase64: string,
): Promise<UnopenedSecrets | undefined> => {
  const keyId = secretKeyId(Buffer.from(keyBase64.trim(), 'base64'));
  const counts = await queryRows<{ key_id: string; secrets: number | string }>(
    db,
    sql`select key_id, count(*) as secrets from (
          select split_part(secret_data, '.', 2) as key_id from connector_auth
          union all
          select split_part(headers, '.', 2) from connector_shared_headers
        ) as sealed group by key_id order by key_id`,
  );
  const others = counts.filter((count) => count.key_id !== keyId);
  if (others.length === 0) return undefined;
  const stored = counts.reduce((sum, count) => sum + Number(count.secrets), 0);
  const secrets = others.reduce((sum, count) => sum + Number(count.secrets), 0);
  const sealedUnder = others.map((count) => count.key_id);
  return {
    keyId,
    sealedUnder,
    secrets,
    stored,
    message:
      `SECRETS_KEY (key id ${keyId}) does not open ${secrets} of the ${stored} stored connector secrets: they were ` +
      `sealed under key ${sealedUnder.join(', ')}. Connectors that need them answer 500 until the server runs ` +
      'with the key that sealed them, or until their authorization is set again.',
  };
};
