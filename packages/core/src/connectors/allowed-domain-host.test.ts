import { describe, expect, it } from 'vitest';
import { AllowedDomain } from './connector.ts';

const verdict = (entry: string) => AllowedDomain.safeParse(entry).success;

describe('AllowedDomain', () => {
  it.each(['*.com', '*.co.uk', '*.github.io', '*.COM', '*.localhost', '*.1.2.3.4'])(
    'refuses %s: a wildcard must stand above a registrable domain',
    (entry) => {
      const result = AllowedDomain.safeParse(entry);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toContain(entry);
    },
  );

  it.each([
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '127.1',
    '01.2.3.4',
    '256.0.0.1',
    'a.0x1',
    '0x7f000001:443',
  ])('refuses %s: an IP address only in dotted decimal', (entry) => {
    expect(verdict(entry)).toBe(false);
  });

  it.each([
    'example.com',
    '*.example.com',
    '*.example.co.uk',
    '*.acme.github.io',
    '*.weather.example',
    '127.0.0.1',
    '10.0.0.255:8443',
    'localhost',
    'x1.example',
  ])('accepts %s', (entry) => {
    expect(verdict(entry)).toBe(true);
  });
});
