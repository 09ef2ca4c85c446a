import { acquireDataDirLock, DataDirBusyError, type DataDirLock, lockHolder } from './data-dir-lock.ts';

/** How long a command waits for a server that holds the data folder but does not listen yet. */
const SERVER_START_WAIT_MS = 120_000;

/**
 * Who may open an embedded data folder for `command` (import, export): the folder's lock, taken for this
 * process when no one holds it, or the address of the server that holds it (once that server listens), which the
 * command then goes through. Another command holding it is an error naming that holder (docs/configuration.md).
 */
export const takeOrFindOwner = async (dataDir: string, command: string): Promise<DataDirLock | string> => {
  const deadline = Date.now() + SERVER_START_WAIT_MS;
  for (;;) {
    let holder = await lockHolder(dataDir);
    if (!holder) {
      try {
        return await acquireDataDirLock(dataDir, command, (line) => process.stderr.write(`${line}\n`));
      } catch (error) {
        if (!(error instanceof DataDirBusyError)) throw error;
        holder = error.holder;
      }
    }
    if (holder.command !== 'start') throw new DataDirBusyError(dataDir, holder);
    if (holder.url) return holder.url;
    if (Date.now() > deadline) throw new DataDirBusyError(dataDir, holder);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
