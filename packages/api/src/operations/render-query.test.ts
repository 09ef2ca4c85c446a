import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { adminOperations } from './admin.ts';
import { parseInput } from './input.ts';

const renders = adminOperations.find((op) => op.id === 'subscriptions.renders');
type RenderOperation = Extract<(typeof adminOperations)[number], { id: 'subscriptions.renders' }>;
type RenderQuery = z.input<NonNullable<RenderOperation['query']>>;

describe('the render query schema', () => {
  it('gives clients exact types (checked by tsc)', () => {
    expectTypeOf<RenderQuery['groupBy']>().toEqualTypeOf<'year' | 'month'>();
    expectTypeOf<RenderQuery['top']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error groupBy is required
    const missing: RenderQuery = { top: 1 };
    expect(missing).toBeDefined();
  });

  it('passes values through for the service to judge after visibility, refusing only a repeated key', () => {
    const raw = {
      params: { subscriptionId: '932a9010-6aac-4aaf-8de0-d89511a6088a' },
      body: undefined,
      hasBody: false,
    };
    expect(renders?.id).toBe('subscriptions.renders');
    expect(parseInput(renders!, { ...raw, query: { groupBy: 'week', top: 'x' } })).toMatchObject({
      groupBy: 'week',
      top: 'x',
    });
    expect(parseInput(renders!, { ...raw, query: {} })).not.toHaveProperty('groupBy');
    expect(() => parseInput(renders!, { ...raw, query: { groupBy: ['year', 'month'] } })).toThrow(/groupBy/);
  });
});
