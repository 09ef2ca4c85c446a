import type { DevKeyStore } from '@platform/api/dev-issuer';
import { type Db, loadOrStoreSharedValue, type SecretBox } from '@platform/store';

/** The development issuer's signing key in platform_meta (PostgreSQL only). */
const DEV_KEY = 'dev-issuer-signing-key';

/**
 * PostgreSQL: the development issuer's signing key lives in the database, sealed with SECRETS_KEY, so that every
 * replica and `platform-server token` sign with the one key the servers verify with (docs/deployment.md).
 */
export const sharedDevKeyStore =
  (db: Db, secrets: SecretBox): DevKeyStore =>
  async (create) =>
    JSON.parse(
      secrets.open(
        await loadOrStoreSharedValue(db, DEV_KEY, async () => secrets.seal(JSON.stringify(await create()))),
      ),
    );
