import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { Db } from '../types.ts';
import { type AuditEntryInput, recordAudit } from './record-audit.ts';

/** The issuer named for changes made on the server's machine by its command line (no token involved). */
export const LOCAL_ISSUER = 'platform-server';

/**
 * The audit entry of a change made by a `platform-server` command (an import from a file): the actor is the
 * operating-system user who ran it, the source the host it ran on (as a key rotation's: on PostgreSQL a command may
 * run on any machine that reaches the database), the trace id new.
 */
export const recordLocalChange = (
  tx: Pick<Db, 'insert'>,
  change: Pick<AuditEntryInput, 'action' | 'target' | 'changes'>,
): Promise<string> => {
  let subject = 'unknown';
  try {
    subject = userInfo().username;
  } catch {
    // no user name on this system: the entry still names the host
  }
  return recordAudit(tx, {
    ...change,
    actor: { issuer: LOCAL_ISSUER, subject },
    outcome: 'success',
    sourceAddress: hostname(),
    traceId: randomBytes(16).toString('hex'),
  });
};
