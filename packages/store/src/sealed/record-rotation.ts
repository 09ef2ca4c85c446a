import { randomBytes } from 'node:crypto';
import { recordAudit } from '../audit/record-audit.ts';
import type { Db } from '../types.ts';
import type { ResealSummary } from './reseal-values.ts';

/**
 * The audit entry of a finished `platform-server rotate-secrets` (`secrets.rotate`): one for the whole rotation,
 * written once its last batch has committed, with how many values each key id sealed before and after. A rotation
 * stopped before its end records none; the run that finishes it does (docs/deployment.md).
 */
export const recordRotation = async (
  db: Db,
  summary: ResealSummary,
  sealingKeyId: string,
  /** Who ran the command: the operating-system user, from this host. */
  operator: { user: string; host: string },
): Promise<void> => {
  await db.transaction((tx) =>
    recordAudit(tx, {
      actor: { issuer: 'platform-server', subject: operator.user },
      action: 'secrets.rotate',
      outcome: 'success',
      target: { type: 'secrets', id: sealingKeyId },
      sourceAddress: operator.host,
      traceId: randomBytes(16).toString('hex'),
      changes: {
        sealedValues: { from: summary.before, to: summary.counts },
        resealed: { to: summary.resealed },
      },
    }),
  );
};
