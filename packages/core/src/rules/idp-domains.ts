import { type FieldErrors, ValidationError } from '../errors.ts';

/**
 * Domain rules of `PUT /api/v1/subscriptions/{subscriptionId}/external-idp-domains` (docs/admin-api.md).
 *
 * Decisions docs/admin-api.md records:
 * - One trailing dot is accepted and dropped: `example.com.` is the fully qualified spelling of `example.com`
 *   and identity providers compare e-mail domains, which never carry it. Two trailing dots are an empty label.
 * - The limit of 100 counts the entries sent, before duplicates collapse, so a huge body is refused before
 *   any entry is run through IDNA.
 */
export const MAX_IDP_DOMAINS = 100;

const MAX_NAME_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

export type DomainCheck = { ok: true; domain: string } | { ok: false; reason: string };

const bad = (why: string): DomainCheck => ({ ok: false, reason: `not a domain name: ${why}` });

/**
 * Names the first ASCII character that has no place in a host name, with what the caller most likely meant
 * (a URL, a wildcard, a port), so the message says how to fix the entry rather than only that it is wrong.
 */
const asciiProblem = (name: string): string | undefined => {
  if (/\s/u.test(name)) return 'spaces are not allowed';
  if (name.includes('*')) return 'wildcards are not allowed';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) return 'schemes such as https:// are not allowed';
  if (name.startsWith('[') || (name.match(/:/g)?.length ?? 0) > 1) return 'IP addresses are not allowed';
  if (name.includes('@')) return 'user names are not allowed';
  if (/[/?#\\]/.test(name)) return 'paths, queries and fragments are not allowed';
  if (name.includes(':')) return 'ports are not allowed';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused here.
  if (/[\x00-\x1f\x7f]/.test(name)) return 'control characters are not allowed';
  if (/[\x21-\x2c\x3b-\x40\x5b-\x60\x7b-\x7e]/.test(name)) {
    return 'only letters, digits, hyphens and dots are allowed';
  }
  return undefined;
};

/** Strict check of an ASCII host name that IDNA already produced (lower case, punycode). */
const hostProblem = (host: string): string | undefined => {
  if (IPV4.test(host)) return 'IP addresses are not allowed';
  if (host.length > MAX_NAME_LENGTH) return `at most ${MAX_NAME_LENGTH} characters are allowed`;
  const labels = host.split('.');
  if (labels.length < 2) return 'at least two labels are needed, such as example.com';
  for (const label of labels) {
    if (label === '') return 'empty labels (two dots in a row, or a leading dot) are not allowed';
    if (label.length > 63) return 'each label may have at most 63 characters';
    if (!LABEL.test(label)) {
      return 'labels hold letters, digits and hyphens, and do not start or end with a hyphen';
    }
  }
  if (/^\d+$/.test(labels.at(-1) ?? '')) return 'the top-level label must not be all digits';
  return undefined;
};

/**
 * Checks one entry and returns its stored form: ASCII (punycode), lower case, without a trailing dot.
 * IDNA runs through the WHATWG URL parser (present in Deno, Node and browsers); its result is validated again
 * strictly, because the parser also accepts and rewrites things that are not host names (IPv4 shorthands,
 * empty labels, underscores).
 */
export const checkIdpDomain = (value: unknown): DomainCheck => {
  if (typeof value !== 'string') return bad('expected a string');
  if (value === '') return bad('the name is empty');
  const problem = asciiProblem(value);
  if (problem) return bad(problem);
  const name = value.endsWith('.') && !value.endsWith('..') ? value.slice(0, -1) : value;
  if (name === '') return bad('the name is empty');

  let host: string;
  try {
    host = new URL(`http://${name}`).hostname;
  } catch {
    // The parser refuses names that end in a number-like label (`a.123`, `a.0x1f`) and invalid IDNA.
    return /^(?:\d+|0x[0-9a-f]*)$/i.test(name.split('.').at(-1) ?? '')
      ? bad('the top-level label must not be a number')
      : bad('not a valid internationalised host name');
  }
  // Pure-ASCII input may only change case; anything else (`1.2.3` → `1.2.0.3`) is the parser guessing.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is "all of ASCII".
  if (/^[\x00-\x7f]*$/.test(name) && host !== name.toLowerCase()) {
    return IPV4.test(host) ? bad('IP addresses are not allowed') : bad('the name is not in canonical form');
  }
  const strict = hostProblem(host);
  return strict ? bad(strict) : { ok: true, domain: host };
};

/**
 * Validates the whole request body and returns the list to store: normalised, duplicates collapsed, first
 * occurrence order kept. Every bad entry is reported at once, keyed `body[i]`.
 */
export const normalizeIdpDomains = (input: unknown): string[] => {
  if (!Array.isArray(input)) {
    throw new ValidationError('The body must be a JSON array of domain names, such as ["example.com"].', {
      body: ['expected an array of strings'],
    });
  }
  if (input.length > MAX_IDP_DOMAINS) {
    throw new ValidationError(
      `At most ${MAX_IDP_DOMAINS} domains can be allowed; ${input.length} were sent.`,
      { body: [`at most ${MAX_IDP_DOMAINS} domains are allowed`] },
    );
  }
  const errors: FieldErrors = {};
  const domains = new Set<string>();
  input.forEach((value: unknown, index) => {
    const check = checkIdpDomain(value);
    if (check.ok) domains.add(check.domain);
    else errors[`body[${index}]`] = [check.reason];
  });
  const badCount = Object.keys(errors).length;
  if (badCount > 0) {
    throw new ValidationError(
      badCount === 1
        ? '1 of the domains is not a valid host name.'
        : `${badCount} of the domains are not valid host names.`,
      errors,
    );
  }
  return [...domains];
};
