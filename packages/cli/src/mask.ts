import { type AuthType, maskSecrets as maskSecretFields, SECRET_MASK } from '@platform/core';

export const MASK = SECRET_MASK;

/** Body parameters of the JWT bearer type are free-form; names like these usually carry a credential. */
const secretLookingName = /secret|password|passwd|token|key|assertion|credential/i;

/**
 * A copy of `data` with every secret field of `type` masked (core's `secretPaths`), for `--dry-run` and
 * `--verbose`. The CLI also masks JWT bearer body parameters whose names look like credentials: the server seals
 * them at rest, and a terminal (and its scrollback) must not show them either.
 */
export const maskSecrets = (type: AuthType, data: Record<string, unknown>): Record<string, unknown> => {
  const masked = maskSecretFields(type, data);
  const params = masked.requestBodyParams;
  if (type === 'oAuth2JwtBearer' && typeof params === 'object' && params !== null && !Array.isArray(params)) {
    masked.requestBodyParams = Object.fromEntries(
      Object.entries(params).map(([name, value]) => [name, secretLookingName.test(name) ? MASK : value]),
    );
  }
  return masked;
};

/** The string values `maskSecrets` hides, so the output layer can redact them wherever they appear. */
export const secretValues = (type: AuthType, data: Record<string, unknown>): string[] => {
  const masked = maskSecrets(type, data);
  const found: string[] = [];
  const walk = (original: unknown, hidden: unknown): void => {
    if (hidden === MASK && typeof original === 'string' && original !== MASK) {
      found.push(original);
      return;
    }
    if (typeof original !== 'object' || original === null || typeof hidden !== 'object' || hidden === null)
      return;
    for (const [name, value] of Object.entries(original))
      walk(value, (hidden as Record<string, unknown>)[name]);
  };
  walk(data, masked);
  return found;
};
