import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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
});
