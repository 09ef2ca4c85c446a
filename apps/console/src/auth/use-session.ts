import { useSyncExternalStore } from 'react';
import { clearSession, loadSession, type Session, saveSession } from './session.ts';

let current = loadSession();
const listeners = new Set<() => void>();

/** Signs in (a session) or out (undefined): the stored copy and every component follow. */
export const setSession = (session: Session | undefined): void => {
  current = session;
  if (session) saveSession(session);
  else clearSession();
  for (const listener of listeners) listener();
};

/** The token for the next request, or nothing once expired (the server would answer 401). */
export const currentToken = (): string | undefined =>
  current && current.expiresAt > Date.now() ? current.accessToken : undefined;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useSession = (): Session | undefined => useSyncExternalStore(subscribe, () => current);
