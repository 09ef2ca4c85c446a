import { getDomain } from 'tldts';

/**
 * The rules of an `allowedDomains` entry's host beyond its shape (docs/environment-api.md): each answers the message
 * for a host it refuses, or undefined. Web APIs and tldts only (it carries the Public Suffix List as data), so they
 * hold under Deno too.
 */

/** WHATWG URL's "ends in a number": a host whose last label is digits or 0x-hex is parsed as an IPv4 address. */
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/i;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const DOTTED_DECIMAL = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/**
 * A host that a URL parser reads as an IPv4 address must be written as one, in dotted decimal: `0x7f000001`,
 * `2130706433`, `0177.0.0.1` and `127.1` all name 127.0.0.1, and a list that seems to allow a name would allow an
 * address.
 */
export const ipSpellingProblem = (host: string): string | undefined => {
  const last = host.slice(host.lastIndexOf('.') + 1);
  if (!NUMERIC_LABEL.test(last) || DOTTED_DECIMAL.test(host)) return undefined;
  return `${host} is read as an IP address but is not one in dotted decimal: write an address as 127.0.0.1 is written (not 0x7f000001, 2130706433, 0177.0.0.1 or 127.1)`;
};

/**
 * `*.base` must stand above a registrable domain, by the Public Suffix List (its private section included): `*.com`,
 * `*.co.uk` and `*.github.io` would let the connector reach, with its credentials, every site registered under them.
 * A base the list does not know ends in a name of its own (`*.weather.example`) and is accepted.
 */
export const wildcardProblem = (base: string): string | undefined => {
  if (ipSpellingProblem(base) === undefined && getDomain(base, { allowPrivateDomains: true }) !== null) {
    return undefined;
  }
  return `*.${base} stands above a public suffix (Public Suffix List) or an address: a wildcard must stand above a registrable domain, such as *.example.com or *.example.co.uk`;
};
