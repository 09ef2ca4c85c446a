import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.ts';
import { hostMatchesAllowedDomains } from './allowed-domains.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    '2001:db8::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('hostMatchesAllowedDomains', () => {
  it('matches exact names and wildcard subdomains', () => {
    expect(hostMatchesAllowedDomains('example.com', ['example.com'])).toBe(true);
    expect(hostMatchesAllowedDomains('EXAMPLE.com.', ['example.com'])).toBe(true);
    expect(hostMatchesAllowedDomains('api.example.com', ['example.com'])).toBe(false);
    expect(hostMatchesAllowedDomains('api.example.com', ['*.example.com'])).toBe(true);
    expect(hostMatchesAllowedDomains('a.b.example.com', ['*.example.com'])).toBe(true);
    expect(hostMatchesAllowedDomains('example.com', ['*.example.com'])).toBe(false);
    expect(hostMatchesAllowedDomains('evilexample.com', ['*.example.com'])).toBe(false);
    expect(hostMatchesAllowedDomains('example.com.evil.net', ['example.com'])).toBe(false);
  });
});
