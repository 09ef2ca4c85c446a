import { mkdir, writeFile } from 'node:fs/promises';
import { UsageError } from './errors.ts';

/** Why a path given with `-o` cannot be written, and what to do instead. */
const reasons: Record<string, string> = {
  ENOENT: 'its folder does not exist; create it first or choose another path with -o',
  ENOTDIR: 'a part of it is a file, not a folder; choose another path with -o',
  EEXIST: 'a file of that name is in the way; choose another path with -o',
  EISDIR: 'it is a folder; name a file with -o',
  EACCES: 'this user may not write there; choose another path with -o',
  EPERM: 'this user may not write there; choose another path with -o',
  EROFS: 'it is on a read-only file system; choose another path with -o',
};

/**
 * A write to a path the user chose: its usual failures are the user's to fix (exit 2, saying how), not the CLI's
 * ("unexpected failure ... report it"). Any other failure stays unexpected.
 */
const asUsageError = (error: unknown, path: string): unknown => {
  const reason = reasons[(error as { code?: string }).code ?? ''];
  return reason === undefined ? error : new UsageError(`cannot write ${path}: ${reason}`);
};

export const writeOutput = async (path: string, text: string): Promise<void> => {
  try {
    await writeFile(path, text);
  } catch (error) {
    throw asUsageError(error, path);
  }
};

export const makeOutputFolder = async (path: string): Promise<void> => {
  try {
    await mkdir(path, { recursive: true });
  } catch (error) {
    throw asUsageError(error, path);
  }
};
