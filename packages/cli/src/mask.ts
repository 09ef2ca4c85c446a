import { type AuthType, maskSecrets as maskSecretFields, SECRET_MASK } from '@platform/core';

export const MASK = SECRET_MASK;

/** The JWT bearer type's free-form objects: the server seals their values with the other secret fields. */
const SEALED_OBJECTS = ['jwtPayload', 'requestBodyParams'] as const;

/**
 * A copy of `data` with every secret field of `type` masked (core's `secretPaths`), for `--dry-run` and
 * `--verbose`. The JWT bearer type's claims and body parameters are masked too, value by value (their names stay,
 * to show what is sent): the server seals them at rest, and a terminal (and its scrollback) must not show them either.
 */
export const maskSecrets = (type: AuthType, data: Record<string, unknown>): Record<string, unknown> => {
  const masked = maskSecretFields(type, data);
  if (type !== 'oAuth2JwtBearer') return masked;
  for (const field of SEALED_OBJECTS) {
    const values = masked[field];
    if (typeof values === 'object' && values !== null && !Array.isArray(values)) {
      masked[field] = Object.fromEntries(Object.keys(values).map((name) => [name, MASK]));
    }
  }
  return masked;
};

/**
 * The string values `maskSecrets` hides, so the output layer can redact them wherever they appear; except one that
 * the data shows anyway inside a field left in clear (a JWT `aud` claim that begins the `tokenEndpoint`): redacting
 * it would hide nothing and garble that field (the endpoint printed as three stars and its path).
 */
export const secretValues = (type: AuthType, data: Record<string, unknown>): string[] => {
  const masked = maskSecrets(type, data);
  const hidden: string[] = [];
  const shown: string[] = [];
  const walk = (original: unknown, seen: unknown): void => {
    if (typeof original === 'string') {
      if (seen === MASK && original !== MASK) hidden.push(original);
      else shown.push(original);
      return;
    }
    if (typeof original !== 'object' || original === null || typeof seen !== 'object' || seen === null)
      return;
    for (const [name, value] of Object.entries(original))
      walk(value, (seen as Record<string, unknown>)[name]);
  };
  walk(data, masked);
  return hidden.filter((value) => !shown.some((text) => text.includes(value)));
};
