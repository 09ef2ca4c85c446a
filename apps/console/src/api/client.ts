import { createPlatformClient } from '@platform/client';
import { currentToken } from '../auth/use-session.ts';

/** The console's one way to the server: the typed tRPC client, with the signed-in user's token. */
export const api = createPlatformClient(window.location.origin, currentToken);
