import type { DevKeyStore } from '@platform/api/dev-issuer';
import { type Db, DEV_ISSUER_KEY_META, loadOrStoreSharedValue, type SecretBox } from '@platform/store';

/**
 * PostgreSQL: the development issuer's signing key lives in the database, sealed with SECRETS_KEY, so that every
 * replica and `platform-server token` sign with the one key the servers verify with (docs/deployment.md).
 */
export const sharedDevKeyStore =
  (db: Db, secrets: SecretBox): DevKeyStore =>
  async (create) =>
    JSON.parse(
      secrets.open(
        await loadOrStoreSharedValue(db, DEV_ISSUER_KEY_META, async () =>
          secrets.seal(JSON.stringify(await create())),
        ),
      ),
    );
