import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.ts';
import { checkIdpDomain, MAX_IDP_DOMAINS, normalizeIdpDomains } from './idp-domains.ts';

const reasonOf = (value: unknown): string => {
  const check = checkIdpDomain(value);
  if (check.ok) throw new Error(`expected ${JSON.stringify(value)} to be rejected, got ${check.domain}`);
  return check.reason;
};

const rejection = (input: unknown): ValidationError => {
  try {
    normalizeIdpDomains(input);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('checkIdpDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Sub.Example.COM', 'sub.example.com'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    ['x1.io', 'x1.io'],
    ['123.example', '123.example'],
    ['example.com.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['BÜCHER.DE', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['ｅｘａｍｐｌｅ。ｃｏｍ', 'example.com'],
  ])('accepts %j as %j', (input, stored) => {
    expect(checkIdpDomain(input)).toEqual({ ok: true, domain: stored });
  });

  it('accepts labels of exactly 63 characters and names of exactly 253', () => {
    const label63 = 'a'.repeat(63);
    expect(checkIdpDomain(`${label63}.com`)).toEqual({ ok: true, domain: `${label63}.com` });
    const name253 = `${'a'.repeat(61)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`;
    expect(name253).toHaveLength(253);
    expect(checkIdpDomain(name253)).toEqual({ ok: true, domain: name253 });
  });

  it.each([
    ['*.example.com', 'wildcards'],
    ['http://example.com', 'schemes'],
    ['HTTPS://example.com', 'schemes'],
    ['example.com:80', 'ports'],
    ['example.com/x', 'paths'],
    ['example.com?x=1', 'paths'],
    ['example.com#x', 'paths'],
    ['user@example.com', 'user names'],
    ['1.2.3.4', 'IP addresses'],
    ['1.2.3', 'IP addresses'],
    ['[::1]', 'IP addresses'],
    ['::1', 'IP addresses'],
    ['2001:db8::1', 'IP addresses'],
    ['', 'empty'],
    ['.', 'empty'],
    ['exa mple.com', 'spaces'],
    [' example.com', 'spaces'],
    ['example.com\t', 'spaces'],
    ['example\u3000.com', 'spaces'],
    ['example', 'two labels'],
    ['-example.com', 'hyphen'],
    ['example-.com', 'hyphen'],
    ['exa_mple.com', 'only letters, digits, hyphens and dots'],
    ['exa%41mple.com', 'only letters, digits, hyphens and dots'],
    ['example..com', 'empty labels'],
    ['.example.com', 'empty labels'],
    ['example.com..', 'empty labels'],
    ['example.123', 'must not be'],
    ['example.0x1f', 'must not be a number'],
    [`${'a'.repeat(64)}.com`, '63'],
    [`${'a.'.repeat(126)}com`, '253'],
    ['xn--zz.com', 'internationalised'],
    ['exa\u0000mple.com', 'control characters'],
  ])('rejects %j (%s)', (input, why) => {
    const reason = reasonOf(input);
    expect(reason.startsWith('not a domain name: ')).toBe(true);
    expect(reason).toContain(why);
  });

  it.each([[null], [undefined], [42], [true], [{}], [['example.com']]])(
    'rejects the non-string %j',
    (value) => {
      expect(reasonOf(value)).toBe('not a domain name: expected a string');
    },
  );

  it('rejects a wildcard with the message docs/admin-api.md describes', () => {
    expect(reasonOf('*.a.com')).toBe('not a domain name: wildcards are not allowed');
  });

  it('only ever returns lower-case ASCII host names that pass the strict rules', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (input) => {
        const check = checkIdpDomain(input);
        if (!check.ok) return;
        expect(check.domain).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
        expect(check.domain.length).toBeLessThanOrEqual(253);
        expect(check.domain.split('.').at(-1)).not.toMatch(/^\d+$/);
        // Normalising the stored form again changes nothing.
        expect(checkIdpDomain(check.domain)).toEqual(check);
      }),
    );
  });
});

describe('normalizeIdpDomains', () => {
  it('returns the normalised list with duplicates collapsed, first occurrence order kept', () => {
    expect(
      normalizeIdpDomains([
        'b.example',
        'A.example',
        'B.EXAMPLE',
        'bücher.de',
        'xn--bcher-kva.de',
        'a.example.',
      ]),
    ).toEqual(['b.example', 'a.example', 'xn--bcher-kva.de']);
  });

  it('accepts an empty list (it clears the stored list)', () => {
    expect(normalizeIdpDomains([])).toEqual([]);
  });

  it.each([[null], ['example.com'], [{ 0: 'example.com' }], [42]])(
    'rejects the non-array body %j',
    (body) => {
      const error = rejection(body);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.status).toBe(400);
      expect(error.errors).toEqual({ body: ['expected an array of strings'] });
    },
  );

  it(`accepts ${MAX_IDP_DOMAINS} domains and rejects ${MAX_IDP_DOMAINS + 1}`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.example`);
    expect(normalizeIdpDomains(many(MAX_IDP_DOMAINS))).toHaveLength(MAX_IDP_DOMAINS);
    const error = rejection(many(MAX_IDP_DOMAINS + 1));
    expect(error.errors).toEqual({ body: ['at most 100 domains are allowed'] });
    expect(error.message).toContain('101 were sent');
  });

  it('reports every bad entry by index, with a sentence counting them', () => {
    const error = rejection(['good.example', '*.a.com', 7, 'ok.example', 'a.com:80']);
    expect(Object.keys(error.errors ?? {})).toEqual(['body[1]', 'body[2]', 'body[4]']);
    expect(error.errors?.['body[1]']).toEqual(['not a domain name: wildcards are not allowed']);
    expect(error.errors?.['body[2]']).toEqual(['not a domain name: expected a string']);
    expect(error.errors?.['body[4]']).toEqual(['not a domain name: ports are not allowed']);
    expect(error.message).toBe('3 of the domains are not valid host names.');
  });

  it('uses the singular for one bad entry', () => {
    expect(rejection(['a.com', '']).message).toBe('1 of the domains is not a valid host name.');
  });

  it('never accepts a list holding a bad entry, and otherwise returns distinct entries', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.domain(), fc.string({ maxLength: 12 }), fc.integer()), { maxLength: 20 }),
        (list) => {
          const allGood = list.every((value) => checkIdpDomain(value).ok);
          if (!allGood) {
            expect(() => normalizeIdpDomains(list)).toThrow(ValidationError);
            return;
          }
          const out = normalizeIdpDomains(list);
          expect(new Set(out).size).toBe(out.length);
          expect(out.length).toBeLessThanOrEqual(list.length);
        },
      ),
    );
  });

  it('accepts every domain fast-check generates (they follow the same host-name grammar)', () => {
    fc.assert(
      fc.property(fc.domain(), (domain) => {
        // fast-check's domains may use a single label or a numeric last label; ours need neither.
        fc.pre(domain.includes('.') && !/\.\d+$/.test(domain));
        expect(normalizeIdpDomains([domain])).toEqual([domain.toLowerCase()]);
      }),
    );
  });
});
