import { randomUUID } from 'node:crypto';
import { insertMedia } from '@platform/store';
import type { Service } from '../context.ts';
import { writeEnvironment } from '../environment-access.ts';
import { withinEnvironmentCap } from '../quotas.ts';
import type { CreateMediaInput, MediaKind } from './schemas.ts';

/**
 * `POST .../media` and `POST .../external-media` `{name}` → 201 `{id, name}`: registers an asset so its
 * subject types can be read and set (the assets themselves live in the platform's media store).
 */
const createMediaOf =
  (kind: MediaKind): Service<CreateMediaInput, { id: string; name: string }> =>
  async (ctx, input) => {
    const { environment } = await writeEnvironment(ctx, input.environment);
    const id = randomUUID();
    const row = await withinEnvironmentCap(ctx, 'media', environment, (db) =>
      insertMedia(db, {
        id,
        environmentId: environment.id,
        external: kind.external,
        // An external asset registered here has no id from its source: its uuid serves as that id.
        externalId: kind.external ? id : null,
        name: input.body.name,
        createdAt: ctx.now,
      }),
    );
    return { id: row.id, name: row.name };
  };

export const createMedia = createMediaOf({ external: false });
export const createExternalMedia = createMediaOf({ external: true });
