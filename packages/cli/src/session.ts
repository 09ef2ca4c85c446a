import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** What `connector-cli login` saves; only this user may read it (mode 0600). */
export const Session = z.object({
  issuer: z.string(),
  clientId: z.string(),
  accessToken: z.string().min(1),
  refreshToken: z.string().optional(),
  scope: z.string().optional(),
  /** Epoch seconds; absent when the issuer did not say. */
  expiresAt: z.number().optional(),
  savedAt: z.number(),
});
export type Session = z.infer<typeof Session>;

export const sessionPath = (configHome: string): string => join(configHome, 'connector-cli', 'session.json');

/** `undefined` when there is no session file; a file that is unreadable or malformed counts as none. */
export const readSession = async (path: string): Promise<Session | undefined> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = Session.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/** Written to a temporary file created with mode 0600 and renamed, so the token is never readable by others. */
export const writeSession = async (path: string, session: Session): Promise<void> => {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is filtered by the umask and ignored for an existing file.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
};
