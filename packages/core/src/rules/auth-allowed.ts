import { AuthType, type AuthUsage, supportsUsage, usagesOfType } from '../connectors/auth-types.ts';
import { type FieldErrors, ValidationError } from '../errors.ts';

export type AuthRequest = {
  /** The connector's `config.supportedAuth`, as published. */
  supportedAuth: readonly AuthType[];
  type: AuthType;
  usage: AuthUsage;
};

/**
 * See docs/connector-cli.md, docs/connector-auth.md, docs/environment-api.md, docs/connector-cli.md: a type may be set only when the connector lists it in
 * `config.supportedAuth` and the type supports the usage (authorization code is per user, so browser only).
 * Both problems are reported together so one correction fixes the command.
 */
export const assertAuthAllowed = ({ supportedAuth, type, usage }: AuthRequest): void => {
  const errors: FieldErrors = {};
  const sentences: string[] = [];
  if (!supportedAuth.includes(type)) {
    const listed = supportedAuth.length === 0 ? 'none' : supportedAuth.join(', ');
    errors.type = [`${type} is not in the connector's supportedAuth (${listed})`];
    sentences.push(
      `The connector does not support ${type}: add it to config.supportedAuth in package.json and publish again.`,
    );
  }
  if (!supportsUsage(type, usage)) {
    const allowed = usagesOfType[type].join(' and ');
    errors.usage = [`${type} supports only ${allowed} usage`];
    sentences.push(
      `${type} cannot be used for ${usage} usage: it supports only ${allowed} usage; choose another type for ${usage}.`,
    );
  }
  if (sentences.length > 0) throw new ValidationError(sentences.join(' '), errors);
};

/**
 * The `supportedAuthentication` of a connector record: which types each usage may be given.
 * Duplicates in `supportedAuth` collapse; order follows the AuthType enumeration so listings are stable.
 */
export const supportedAuthentication = (
  supportedAuth: readonly AuthType[],
): { browser: AuthType[]; server: AuthType[] } => {
  const listed = AuthType.options.filter((type) => supportedAuth.includes(type));
  return {
    browser: listed.filter((type) => supportsUsage(type, 'browser')),
    server: listed.filter((type) => supportsUsage(type, 'server')),
  };
};
