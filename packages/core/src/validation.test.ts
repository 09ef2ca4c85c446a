import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SharedHeadersBody } from './connectors/connector.ts';
import { fieldErrors } from './validation.ts';

describe('fieldErrors', () => {
  // Found by the fuzz suite: a body with an unknown key `constructor` or `__proto__` answered 500
  // (`list.push is not a function`), because the key met Object.prototype's own property.
  it('names unknown fields called constructor, __proto__ and toString as plain entries', () => {
    const schema = z.strictObject({ name: z.string() });
    const body = JSON.parse('{"name": 1, "constructor": "x", "__proto__": "y", "toString": "z"}');
    const result = schema.safeParse(body);
    expect(result.success).toBe(false);
    const errors = fieldErrors(result.error!, 'body');
    expect(Object.keys(errors).sort()).toEqual(['__proto__', 'constructor', 'name', 'toString']);
    expect(errors.constructor).toEqual(['unknown field']);
    expect(Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(errors)), '__proto__')?.value).toEqual([
      'unknown field',
    ]);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
  });

  it('names a refused record key by its rule, not zod\'s "Invalid key in record"', () => {
    const result = SharedHeadersBody.safeParse({ headers: { Host: 'x', 'X-Tenant': 'a' } });
    expect(result.success).toBe(false);
    if (result.success) return;
    const errors = fieldErrors(result.error);
    expect(Object.keys(errors)).toEqual(['headers.Host']);
    expect(errors['headers.Host']?.[0]).toContain('a header the proxy sets itself');
  });
});
