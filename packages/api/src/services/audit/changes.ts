import type { ServiceContext } from '../context.ts';
import type { AuditChanges } from './record.ts';

type Values = Record<string, unknown>;

/**
 * `{field: {from?, to?}}` for the fields named: each field either side holds. Every field given in a write is
 * listed, even when it is set to what it was: the trail tells "set again" from "not touched".
 */
export const fieldChanges = (
  before: Values | undefined,
  after: Values | undefined,
  fields?: string[],
): AuditChanges => {
  const changes: AuditChanges = {};
  const names = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  for (const name of names) {
    const from = before?.[name];
    const to = after?.[name];
    if (from === undefined && to === undefined) continue;
    changes[name] = {
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    };
  }
  return changes;
};

/** The secret fields as their keyed fingerprints: what the trail may show of them. */
export const fingerprinted = (ctx: ServiceContext, secrets: Values | undefined): Values | undefined => {
  if (secrets === undefined) return undefined;
  const shown: Values = {};
  for (const [name, value] of Object.entries(secrets)) {
    if (value === undefined || value === null) continue;
    shown[name] = ctx.fingerprint(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return shown;
};

/** A sealed JSON object of secrets, opened and fingerprinted; undefined when there is none. */
export const fingerprintedSealed = (ctx: ServiceContext, sealed: string | undefined): Values | undefined =>
  sealed === undefined ? undefined : fingerprinted(ctx, JSON.parse(ctx.secrets.open(sealed)) as Values);
