/**
 * The signed-in session, kept in sessionStorage: it lives as long as the tab, survives a reload, and is never put
 * in a URL. Sign-out and an expired or refused token clear it.
 */
export type Session = {
  accessToken: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  userId: string;
  /** Token roles (`platform:read` …), read from the access token for display only: the server decides. */
  roles: string[];
};

const KEY = 'platform-console.session';

export const loadSession = (): Session | undefined => {
  try {
    const session = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return session && session.expiresAt > Date.now() ? session : undefined;
  } catch {
    return undefined;
  }
};

export const saveSession = (session: Session): void => sessionStorage.setItem(KEY, JSON.stringify(session));

export const clearSession = (): void => sessionStorage.removeItem(KEY);
