import { describe, expect, it } from 'vitest';
import { tokenEndpointAuthMethodOf } from '../rules/token-endpoint-auth.ts';
import { ExternalMediaId, TEMPLATE_CONTENT_MAX_BYTES, TemplateContent } from './environment-api.ts';

const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('TemplateContent', () => {
  it('takes any JSON value', () => {
    for (const value of [null, 0, 'text', true, [], {}, { pages: [{ frames: [] }] }])
      expect(TemplateContent.safeParse(value).success).toBe(true);
  });
  it('refuses more than 5 MiB of JSON and more than 512 levels, at any depth without overflowing', () => {
    expect(TemplateContent.safeParse('x'.repeat(TEMPLATE_CONTENT_MAX_BYTES - 2)).success).toBe(true);
    expect(TemplateContent.safeParse('x'.repeat(TEMPLATE_CONTENT_MAX_BYTES - 1)).success).toBe(false);
    expect(TemplateContent.safeParse(nested(512)).success).toBe(true);
    for (const depth of [513, 200_000]) {
      const result = TemplateContent.safeParse(nested(depth));
      expect(result.error?.issues[0]?.message).toBe('at most 512 levels of nesting');
    }
  });
});

describe('ExternalMediaId', () => {
  it('is 1 to 256 code points without control characters', () => {
    for (const id of ['ext-123', 'a', 'é'.repeat(256), '00000000-0000-4000-8000-000000000000', 'a b/c?d'])
      expect(ExternalMediaId.safeParse(id).success, id).toBe(true);
    for (const id of ['', 'é'.repeat(257), 'a\u0000b', 'tab\there', 'del\u007f', 'c1\u0085'])
      expect(ExternalMediaId.safeParse(id).success, JSON.stringify(id)).toBe(false);
  });
});

describe('tokenEndpointAuthMethodOf', () => {
  it('takes the first entry, client_secret_basic without a list', () => {
    expect(tokenEndpointAuthMethodOf(undefined)).toBe('client_secret_basic');
    expect(tokenEndpointAuthMethodOf(['client_secret_post', 'client_secret_basic'])).toBe(
      'client_secret_post',
    );
    expect(tokenEndpointAuthMethodOf(['client_secret_basic', 'client_secret_post'])).toBe(
      'client_secret_basic',
    );
  });
});
