import { type AuthDataOf, secretPaths } from '../connectors/auth-data.ts';
import type { AuthType } from '../connectors/auth-types.ts';
import { ServiceError } from '../errors.ts';

/** What the CLI prints in place of a secret (`--dry-run`, `--verbose`). */
export const SECRET_MASK = '********';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object that holds the last segment of `path`, or undefined when a step on the way is missing. */
const parentOf = (root: JsonObject, path: readonly string[], create: boolean): JsonObject | undefined => {
  let node = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (isObject(next)) node = next;
    else if (create && next === undefined) node = node[key] = {};
    else return undefined;
  }
  return node;
};

/**
 * Fields sealed at rest besides the secret fields of `secretPaths`: whole objects of free-form values that often
 * carry a credential (a `client_secret` body parameter, a claim), kept as they are (string, number or boolean values).
 * They are never returned either; unlike secret fields they are optional, and the CLI shows them (masking names
 * that look like credentials).
 */
export const sealedObjectPaths: Readonly<Record<AuthType, readonly string[]>> = {
  staticKey: [],
  oAuth2ClientCredentials: [],
  oAuth2AuthorizationCode: [],
  oAuth2ResourceOwnerPassword: [],
  oAuth2JwtBearer: ['jwtPayload', 'requestBodyParams'],
};

const segments = (path: string): [string[], string] => {
  const parts = path.split('.');
  return [parts, parts.at(-1) ?? path];
};

/**
 * Separates the secret fields and sealed objects of an authorization (they are encrypted at rest) from the rest
 * (stored in clear and shown in listings). `secretData` is flat, keyed by the dot path of `secretPaths` and
 * `sealedObjectPaths` (`{ 'signatureConfig.privateKey': '…', jwtPayload: {…} }`), so the encrypted blob does not
 * depend on the type's nesting. The input is not modified.
 */
export const splitSecrets = <T extends AuthType>(
  type: T,
  data: AuthDataOf[T],
): { publicData: JsonObject; secretData: Record<string, unknown> } => {
  const publicData = structuredClone(data) as JsonObject;
  const secretData: Record<string, unknown> = {};
  for (const path of sealedObjectPaths[type]) {
    const [parts, last] = segments(path);
    const parent = parentOf(publicData, parts, false);
    if (parent === undefined || parent[last] === undefined) continue;
    secretData[path] = parent[last];
    delete parent[last];
  }
  for (const path of secretPaths[type]) {
    const [parts, last] = segments(path);
    const parent = parentOf(publicData, parts, false);
    const value = parent?.[last];
    if (parent === undefined || value === undefined) continue;
    if (typeof value !== 'string') {
      // Every secret field is a string in its schema; anything else means unparsed data reached here.
      throw new ServiceError('INTERNAL', `The secret field ${path} of ${type} data is not a string.`);
    }
    secretData[path] = value;
    delete parent[last];
  }
  return { publicData, secretData };
};

/**
 * Rebuilds the data `splitSecrets` separated. A missing secret means the stored record is damaged, which is
 * the server's fault (500), not the caller's.
 */
export const joinSecrets = <T extends AuthType>(
  type: T,
  publicData: JsonObject,
  secretData: Readonly<Record<string, unknown>>,
): AuthDataOf[T] => {
  const data = structuredClone(publicData);
  for (const path of sealedObjectPaths[type]) {
    const value = secretData[path];
    if (value === undefined) continue;
    const [parts, last] = segments(path);
    const parent = parentOf(data, parts, true);
    if (parent !== undefined) parent[last] = structuredClone(value);
  }
  for (const path of secretPaths[type]) {
    const value = secretData[path];
    if (typeof value !== 'string') {
      throw new ServiceError('INTERNAL', `The stored ${type} authorization lacks its secret ${path}.`);
    }
    const [parts, last] = segments(path);
    const parent = parentOf(data, parts, true);
    if (parent === undefined) {
      throw new ServiceError('INTERNAL', `The stored ${type} authorization cannot hold its secret ${path}.`);
    }
    parent[last] = value;
  }
  return data as AuthDataOf[T];
};

/**
 * A copy of `data` with every secret field present replaced by `SECRET_MASK`, for printing. Works on data
 * that was not validated yet (the CLI shows what it would send): non-objects come back unchanged.
 */
export const maskSecrets = <D>(type: AuthType, data: D): D => {
  if (!isObject(data)) return data;
  const copy = structuredClone(data) as JsonObject;
  for (const path of secretPaths[type]) {
    const [parts, last] = segments(path);
    const parent = parentOf(copy, parts, false);
    if (parent !== undefined && parent[last] !== undefined) parent[last] = SECRET_MASK;
  }
  return copy as D;
};
