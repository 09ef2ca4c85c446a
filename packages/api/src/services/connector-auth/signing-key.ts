import { createPrivateKey } from 'node:crypto';
import type { AuthDataOf, AuthType } from '@platform/core';
import { ValidationError } from '@platform/core';

/** NIST SP 800-131A: RSA keys below 2048 bits are no longer acceptable for signatures. */
const MIN_RSA_BITS = 2048;
const FIELD = 'signatureConfig.privateKey';

/**
 * The JWT bearer assertion is signed RS256 (docs/connector-auth.md): a key that is not RSA, or is shorter than 2048
 * bits, would fail at every token request (or sign with a key anyone can break), so it is refused when it is set.
 * The message names the field and the rule, never the key.
 */
export const assertSigningKey = (type: AuthType, data: AuthDataOf[AuthType]): void => {
  if (type !== 'oAuth2JwtBearer') return;
  const { privateKey } = (data as AuthDataOf['oAuth2JwtBearer']).signatureConfig;
  let problem: string | undefined;
  try {
    const key = createPrivateKey(privateKey);
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (key.asymmetricKeyType !== 'rsa')
      problem = `an RSA private key for RS256 (this is ${key.asymmetricKeyType})`;
    else if (bits < MIN_RSA_BITS)
      problem = `an RSA key of at least ${MIN_RSA_BITS} bits (this one has ${bits})`;
  } catch {
    problem = 'a PEM private key (PKCS#8 or PKCS#1) that can be read';
  }
  if (problem) {
    throw new ValidationError(`The JWT bearer ${FIELD} must be ${problem}.`, { [FIELD]: [problem] });
  }
};
