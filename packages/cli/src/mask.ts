import { type AuthType, secretPaths } from '@platform/core';

export const MASK = '***';

/** Body parameters of the JWT bearer type are free-form; names like these usually carry a credential. */
const secretLookingName = /secret|password|passwd|token|key|assertion|credential/i;

const maskPath = (value: unknown, path: readonly string[]): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const [head, ...rest] = path;
  if (head === undefined || !(head in value)) return value;
  const record = value as Record<string, unknown>;
  return { ...record, [head]: rest.length === 0 ? MASK : maskPath(record[head], rest) };
};

/** A copy of `data` with every secret field of `type` replaced by `***`, for `--dry-run` and `--verbose`. */
export const maskSecrets = (type: AuthType, data: Record<string, unknown>): Record<string, unknown> => {
  let out: unknown = data;
  for (const path of secretPaths[type]) out = maskPath(out, path.split('.'));
  const masked = out as Record<string, unknown>;
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
