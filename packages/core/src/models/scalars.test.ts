import { describe, expect, it } from 'vitest';
import { isGuid, uuid } from './scalars.ts';

describe('isGuid', () => {
  it('accepts exactly what the uuid() schema accepts', () => {
    const schema = uuid();
    const values = [
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      '3F2504E0-4F89-11D3-9A0C-0305E82C3301',
      '00000000-0000-0000-0000-000000000000',
      '3f2504e04f8911d39a0c0305e82c3301',
      '{3f2504e0-4f89-11d3-9a0c-0305e82c3301}',
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301\n',
      ' 3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      '3f2504e0-4f89-11d3-9a0c-0305e82c330g',
      '',
      42,
      undefined,
    ];
    for (const value of values) expect(isGuid(value), String(value)).toBe(schema.safeParse(value).success);
  });
});
