import { AuthType, type AuthUsage } from '../connectors/auth-types.ts';
import { assertAuthAllowed } from './auth-allowed.ts';

/** The authorization a connector applies per usage. Empty by default: no authorization (docs/connector-auth.md rule 1). */
export type AuthState = Partial<Record<AuthUsage, { type: AuthType; revision: number }>>;

export type AuthChange = {
  usage: AuthUsage;
  type: AuthType;
  /** The connector's `config.supportedAuth`; when omitted only the usage rule is checked. */
  supportedAuth?: readonly AuthType[];
};

/**
 * See docs/connector-auth.md rules 2 and 3: a usage holds at most one type, and setting it again replaces the earlier
 * type. The revision grows with every set (also with the same type, as the data may have changed) so that
 * anything derived from an earlier configuration can tell it is stale. A usage deleted and set again starts
 * over at revision 1. Throws the ValidationError of `assertAuthAllowed` for a type the usage cannot hold.
 */
export const setAuth = (state: AuthState, change: AuthChange): AuthState => {
  const { usage, type, supportedAuth = AuthType.options } = change;
  assertAuthAllowed({ supportedAuth, type, usage });
  return { ...state, [usage]: { type, revision: (state[usage]?.revision ?? 0) + 1 } };
};

/** Removes the usage's authorization; deleting one that is not set is not an error (idempotent). */
export const deleteAuth = (state: AuthState, usage: AuthUsage): AuthState => {
  const { [usage]: _removed, ...rest } = state;
  return rest;
};
