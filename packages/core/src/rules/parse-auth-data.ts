import { type AuthDataOf, authDataSchemas } from '../connectors/auth-data.ts';
import type { AuthType } from '../connectors/auth-types.ts';
import { ValidationError } from '../errors.ts';
import { fieldErrors } from '../validation.ts';

/**
 * Parses the data of one authorization type (docs/connector-auth.md, docs/environment-api.md) strictly: defaults filled
 * in, unknown fields refused. The ValidationError names every bad field by its dotted path
 * (`authorizationServerMetadata.token_endpoint`); a value that is not an object at all is keyed `data`.
 */
export const parseAuthData = <T extends AuthType>(type: T, data: unknown): AuthDataOf[T] => {
  const result = authDataSchemas[type].safeParse(data);
  if (result.success) return result.data as AuthDataOf[T];
  const errors = fieldErrors(result.error, 'data');
  const fields = Object.keys(errors);
  throw new ValidationError(
    `The ${type} authorization data is not valid: check ${fields.join(', ')}.`,
    errors,
  );
};
