import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EnvironmentType } from '../../models/enums.ts';
import { EnvironmentRenderModel, SubscriptionRendersModel } from '../../models/renders.ts';
import { addDays } from './dates.ts';
import {
  type EnvironmentRenderRow,
  environmentRenderGroups,
  OTHERS_NAME,
  type RenderEnvironment,
  subscriptionRenderGroups,
} from './groups.ts';
import { parseRenderQuery } from './query.ts';

const now = new Date('2026-03-15T12:00:00Z');
const row = (day: string, kind: string, count: number, watermarked = false) => ({
  day,
  kind,
  count,
  watermarked,
});

describe('environmentRenderGroups', () => {
  it('zero-fills every group, oldest first, with UTC midnight dates', () => {
    const query = parseRenderQuery({ groupBy: 'year' }, now, { allowTop: false });
    const groups = environmentRenderGroups([], query);
    expect(groups).toHaveLength(12);
    expect(groups[0]).toEqual({
      date: '2025-04-01T00:00:00Z',
      totalRenders: 0,
      totalWatermarkedRenders: 0,
      renderDetail: [],
    });
    for (const group of groups) expect(EnvironmentRenderModel.parse(group)).toEqual(group);
  });

  it('counts watermarked renders apart and orders the detail by renders then name', () => {
    const query = parseRenderQuery(
      { groupBy: 'month', startDate: '2026-03-01', endDate: '2026-03-02' },
      now,
      {
        allowTop: false,
      },
    );
    const groups = environmentRenderGroups(
      [
        row('2026-03-01', 'Pdf', 3),
        row('2026-03-01', 'Image', 5),
        row('2026-03-01', 'Gif', 3),
        row('2026-03-01', 'Pdf', 7, true),
        row('2026-03-01', 'Video', 4, true),
        row('2026-03-02', 'Pdf', 0),
      ],
      query,
    );
    expect(groups).toEqual([
      {
        date: '2026-03-01T00:00:00Z',
        totalRenders: 11,
        totalWatermarkedRenders: 11,
        renderDetail: [
          { name: 'Image', renders: 5 },
          { name: 'Gif', renders: 3 },
          { name: 'Pdf', renders: 3 },
        ],
      },
      { date: '2026-03-02T00:00:00Z', totalRenders: 0, totalWatermarkedRenders: 0, renderDetail: [] },
    ]);
  });

  it('does not count renders outside the range, even inside the first or last month group', () => {
    const query = parseRenderQuery({ groupBy: 'year', startDate: '2026-01-10', endDate: '2026-02-20' }, now, {
      allowTop: false,
    });
    const groups = environmentRenderGroups(
      [
        row('2026-01-09', 'Pdf', 100),
        row('2026-01-10', 'Pdf', 1),
        row('2026-02-20', 'Pdf', 2),
        row('2026-02-21', 'Pdf', 100),
        row('2025-12-31', 'Pdf', 100),
      ],
      query,
    );
    expect(groups.map((group) => [group.date, group.totalRenders])).toEqual([
      ['2026-01-01T00:00:00Z', 1],
      ['2026-02-01T00:00:00Z', 2],
    ]);
  });
});

const environments: RenderEnvironment[] = [
  { guid: '00000000-0000-4000-8000-000000000001', name: 'Dev', type: 'Development' },
  { guid: '00000000-0000-4000-8000-000000000002', name: 'Prod B', type: 'Production' },
  { guid: '00000000-0000-4000-8000-000000000003', name: 'Prod A', type: 'Production' },
  { guid: '00000000-0000-4000-8000-000000000004', name: 'Sandbox', type: 'Sandbox' },
];
const guid = (name: string) => environments.find((environment) => environment.name === name)?.guid ?? '';
const envRow = (name: string, day: string, count: number, watermarked = false): EnvironmentRenderRow => ({
  environmentGuid: guid(name),
  day,
  kind: 'Pdf',
  count,
  watermarked,
});

describe('subscriptionRenderGroups', () => {
  const query = (extra: Record<string, unknown> = {}) =>
    parseRenderQuery({ groupBy: 'month', startDate: '2026-03-01', endDate: '2026-03-02', ...extra }, now, {
      allowTop: true,
    });

  it('lists every environment in every group: type, then the group renders descending, then name', () => {
    const rows = [
      envRow('Prod A', '2026-03-01', 1),
      envRow('Prod B', '2026-03-02', 4),
      envRow('Dev', '2026-03-01', 9),
    ];
    const groups = subscriptionRenderGroups(environments, rows, query());
    expect(groups.map((group) => group.environments.map((entry) => entry.name))).toEqual([
      ['Prod A', 'Prod B', 'Sandbox', 'Dev'],
      ['Prod B', 'Prod A', 'Sandbox', 'Dev'],
    ]);
    expect(groups[0]).toMatchObject({
      date: '2026-03-01T00:00:00Z',
      totalRenders: 10,
      totalWatermarkedRenders: 0,
    });
    for (const group of groups) expect(SubscriptionRendersModel.parse(group)).toEqual(group);
  });

  it('top: the most rendering environments over the whole range, the rest in Others last', () => {
    const rows = [
      envRow('Dev', '2026-03-01', 9),
      envRow('Sandbox', '2026-03-01', 2),
      envRow('Prod A', '2026-03-02', 3),
      envRow('Prod B', '2026-03-02', 1, true),
    ];
    const groups = subscriptionRenderGroups(environments, rows, query({ top: '2' }));
    expect(groups[0]?.environments).toEqual([
      { name: 'Prod A', renders: 0, watermarkedRenders: 0 },
      { name: 'Dev', renders: 9, watermarkedRenders: 0 },
      { name: OTHERS_NAME, renders: 2, watermarkedRenders: 0 },
    ]);
    expect(groups[1]?.environments).toEqual([
      { name: 'Prod A', renders: 3, watermarkedRenders: 0 },
      { name: 'Dev', renders: 0, watermarkedRenders: 0 },
      { name: OTHERS_NAME, renders: 0, watermarkedRenders: 1 },
    ]);
  });

  it('top: ties go by type order, then name', () => {
    const groups = subscriptionRenderGroups(environments, [], query({ top: '2' }));
    expect(groups[0]?.environments.map((entry) => entry.name)).toEqual(['Prod A', 'Prod B', OTHERS_NAME]);
    const three = subscriptionRenderGroups(environments, [], query({ top: '3' }));
    expect(three[0]?.environments.map((entry) => entry.name)).toEqual([
      'Prod A',
      'Prod B',
      'Sandbox',
      OTHERS_NAME,
    ]);
  });

  it('no Others when top covers every environment', () => {
    for (const top of ['4', '5']) {
      const groups = subscriptionRenderGroups(environments, [], query({ top }));
      expect(groups[0]?.environments.map((entry) => entry.name)).not.toContain(OTHERS_NAME);
      expect(groups[0]?.environments).toHaveLength(4);
    }
  });

  it('a subscription without environments still has every group', () => {
    const groups = subscriptionRenderGroups([], [], query({ top: '1' }));
    expect(groups).toEqual([
      { date: '2026-03-01T00:00:00Z', totalRenders: 0, totalWatermarkedRenders: 0, environments: [] },
      { date: '2026-03-02T00:00:00Z', totalRenders: 0, totalWatermarkedRenders: 0, environments: [] },
    ]);
  });
});

describe('render group properties', () => {
  const types: EnvironmentType[] = ['Development', 'Sandbox', 'Production'];
  const arbEnvironments = fc
    .uniqueArray(
      fc.record({
        name: fc.string({ minLength: 1, maxLength: 6 }),
        type: fc.constantFrom(...types),
      }),
      { maxLength: 8, selector: (environment) => environment.name },
    )
    .map((list) =>
      list.map((environment, index) => ({
        ...environment,
        guid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      })),
    );
  const start = '2026-01-20';
  const arbCase = arbEnvironments.chain((envs) =>
    fc.record({
      environments: fc.constant(envs),
      rows: fc.array(
        fc.record({
          environmentGuid:
            envs.length > 0 ? fc.constantFrom(...envs.map((e) => e.guid)) : fc.constant('none'),
          day: fc.integer({ min: -40, max: 80 }).map((offset) => addDays(start, offset)),
          kind: fc.constantFrom('Pdf', 'Image', 'Gif'),
          watermarked: fc.boolean(),
          count: fc.integer({ min: 0, max: 1000 }),
        }),
        { maxLength: 60 },
      ),
      groupBy: fc.constantFrom('year', 'month'),
      length: fc.integer({ min: 0, max: 40 }),
      top: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
    }),
  );

  const queryOf = (c: { groupBy: string; length: number; top: number | undefined }) =>
    parseRenderQuery(
      {
        groupBy: c.groupBy,
        startDate: start,
        endDate: addDays(start, c.length),
        ...(c.top === undefined ? {} : { top: String(c.top) }),
      },
      now,
      { allowTop: true },
    );

  const inRange = (day: string, length: number) => day >= start && day <= addDays(start, length);

  it('subscription totals are preserved, Others appears exactly when something merged, same environments in every group', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const query = queryOf(c);
        const groups = subscriptionRenderGroups(c.environments, c.rows, query);
        expect(groups.map((group) => group.date)).toEqual(query.groups.map((day) => `${day}T00:00:00Z`));
        const known = new Set(c.environments.map((e) => e.guid));
        const counted = c.rows.filter((r) => inRange(r.day, c.length) && known.has(r.environmentGuid));
        const expectRenders = counted.filter((r) => !r.watermarked).reduce((sum, r) => sum + r.count, 0);
        const expectWatermarked = counted.filter((r) => r.watermarked).reduce((sum, r) => sum + r.count, 0);
        let renders = 0;
        let watermarked = 0;
        const merged = c.top !== undefined && c.top < c.environments.length;
        const names = groups[0]?.environments.map((entry) => entry.name).sort();
        for (const group of groups) {
          SubscriptionRendersModel.parse(group);
          const sumRenders = group.environments.reduce((sum, entry) => sum + entry.renders, 0);
          const sumWatermarked = group.environments.reduce((sum, entry) => sum + entry.watermarkedRenders, 0);
          expect(sumRenders).toBe(group.totalRenders);
          expect(sumWatermarked).toBe(group.totalWatermarkedRenders);
          renders += group.totalRenders;
          watermarked += group.totalWatermarkedRenders;
          expect(group.environments.map((entry) => entry.name).sort()).toEqual(names);
          const last = group.environments.at(-1);
          if (merged) {
            expect(last?.name).toBe(OTHERS_NAME);
            expect(group.environments).toHaveLength((c.top ?? 0) + 1);
          } else {
            expect(group.environments).toHaveLength(c.environments.length);
          }
        }
        expect(renders).toBe(expectRenders);
        expect(watermarked).toBe(expectWatermarked);
      }),
    );
  });

  it('environment totals are preserved and the detail sums to totalRenders', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const query = queryOf(c);
        const groups = environmentRenderGroups(c.rows, query);
        expect(groups).toHaveLength(query.groups.length);
        const counted = c.rows.filter((r) => inRange(r.day, c.length));
        let renders = 0;
        let watermarked = 0;
        for (const group of groups) {
          EnvironmentRenderModel.parse(group);
          expect(group.renderDetail.reduce((sum, detail) => sum + detail.renders, 0)).toBe(
            group.totalRenders,
          );
          for (const detail of group.renderDetail) expect(detail.renders).toBeGreaterThan(0);
          renders += group.totalRenders;
          watermarked += group.totalWatermarkedRenders;
        }
        expect(renders).toBe(counted.filter((r) => !r.watermarked).reduce((sum, r) => sum + r.count, 0));
        expect(watermarked).toBe(counted.filter((r) => r.watermarked).reduce((sum, r) => sum + r.count, 0));
      }),
    );
  });
});
