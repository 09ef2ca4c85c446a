import {
  type AuthDataOf,
  type AuthType,
  AuthUsage,
  addFieldErrors,
  assertAuthAllowed,
  assertHttpsEndpoints,
  type FieldErrors,
  fieldErrors,
  parseAuthData,
  ValidationError,
} from '@platform/core';
import { z } from 'zod';
import { assertSigningKey } from './signing-key.ts';

const Envelope = z.object({
  usage: z.enum(AuthUsage.options, { error: 'required: browser or server' }),
  name: z.string().trim().min(1).max(200).optional(),
});

export type ParsedAuthBody = { usage: AuthUsage; name: string | undefined; data: AuthDataOf[AuthType] };

/** Runs a check of core's and keeps its ValidationError, so that every problem is reported together. */
const attempt = <T>(run: () => T, failures: ValidationError[]): T | undefined => {
  try {
    return run();
  } catch (error) {
    if (error instanceof ValidationError) failures.push(error);
    else throw error;
    return undefined;
  }
};

/**
 * The body of `PUT .../auth/{kind}`: `{usage, name?, ...data}` (docs/environment-api.md). Every problem is reported at
 * once, each under its field's name: the envelope, the type's data (unknown fields too, docs/connector-auth.md) and
 * the rules of docs/connector-auth.md (type listed in the connector's supportedAuth; authorization code is browser only;
 * https endpoints, or http too when `allowHttp`: checked on the fields given even when others are missing).
 */
export const parseAuthBody = (
  type: AuthType,
  body: Record<string, unknown>,
  supportedAuth: readonly AuthType[],
  allowHttp: boolean,
): ParsedAuthBody => {
  const { usage, name, ...rest } = body;
  const failures: ValidationError[] = [];
  const envelope = Envelope.safeParse({ usage, name });
  if (!envelope.success) {
    const errors = fieldErrors(envelope.error);
    failures.push(new ValidationError(`Check ${Object.keys(errors).join(', ')}.`, errors));
  }
  const data = attempt(() => parseAuthData(type, rest), failures);
  if (data !== undefined) attempt(() => assertSigningKey(type, data), failures);
  attempt(() => assertHttpsEndpoints(type, data ?? rest, allowHttp), failures);
  if (envelope.success) {
    const chosen = envelope.data.usage;
    attempt(() => assertAuthAllowed({ supportedAuth, type, usage: chosen }), failures);
  }
  if (!envelope.success || data === undefined || failures.length > 0) {
    const errors: FieldErrors = {};
    for (const failure of failures) {
      for (const [field, messages] of Object.entries(failure.errors ?? {}))
        addFieldErrors(errors, field, messages);
    }
    throw new ValidationError(failures.map((f) => f.message).join(' '), errors);
  }
  return { usage: envelope.data.usage, name: envelope.data.name, data };
};
