import { type EnvironmentType, environmentTypeOrder } from '../../models/enums.ts';
import type {
  EnvironmentRenderDetail,
  EnvironmentRenderInformation,
  EnvironmentRenderModel,
  SubscriptionRendersModel,
} from '../../models/renders.ts';
import { groupDateTime } from './dates.ts';
import { groupOf, type RenderQuery } from './query.ts';

/** Renders of one environment, UTC day, kind and watermark flag (as the store rolls them up). */
export type RenderRow = {
  readonly day: string;
  readonly kind: string;
  readonly watermarked: boolean;
  readonly count: number;
};

export type EnvironmentRenderRow = RenderRow & { readonly environmentGuid: string };

/** What subscription groups need of a row: they never split by kind, so the store may sum kinds first. */
export type SubscriptionRenderRow = Omit<EnvironmentRenderRow, 'kind'>;

/** What subscription renders need of an environment. */
export type RenderEnvironment = {
  readonly guid: string;
  readonly name: string;
  readonly type: EnvironmentType;
};

/** Name of the entry that sums the environments outside `top`. */
export const OTHERS_NAME = 'Others';

/** Code-point order: the same everywhere, unlike `localeCompare`. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const inRange = (query: RenderQuery, day: string): boolean => day >= query.startDay && day <= query.endDay;

/** Per-group zero-filled counters, keyed by group start day, in group order. */
const emptyGroups = <T>(query: RenderQuery, make: () => T): Map<string, T> =>
  new Map(query.groups.map((day) => [day, make()]));

/** Render groups of one environment (docs/admin-api.md, docs/admin-api.md). */
export const environmentRenderGroups = (
  rows: readonly RenderRow[],
  query: RenderQuery,
): EnvironmentRenderModel[] => {
  const groups = emptyGroups(query, () => ({ renders: 0, watermarked: 0, kinds: new Map<string, number>() }));
  for (const row of rows) {
    if (!inRange(query, row.day)) continue;
    const group = groups.get(groupOf(query, row.day));
    if (!group) continue;
    if (row.watermarked) {
      group.watermarked += row.count;
    } else {
      group.renders += row.count;
      group.kinds.set(row.kind, (group.kinds.get(row.kind) ?? 0) + row.count);
    }
  }
  return [...groups].map(([day, group]) => {
    const renderDetail: EnvironmentRenderDetail[] = [...group.kinds]
      .filter(([, renders]) => renders > 0)
      .map(([name, renders]) => ({ name, renders }))
      .sort((a, b) => b.renders - a.renders || byText(a.name, b.name));
    return {
      date: groupDateTime(day),
      totalRenders: group.renders,
      totalWatermarkedRenders: group.watermarked,
      renderDetail,
    };
  });
};

type Counts = { renders: number; watermarked: number };

const typeThenName = (a: RenderEnvironment, b: RenderEnvironment): number =>
  environmentTypeOrder[a.type] - environmentTypeOrder[b.type] ||
  byText(a.name, b.name) ||
  byText(a.guid, b.guid);

/**
 * Render groups of a subscription (docs/admin-api.md, docs/admin-api.md): every environment in every
 * group, ordered by type, then the group's renders descending, then name. With `query.top`, the `top`
 * environments with the most renders over the whole range (ties: type order, then name) are listed in every
 * group, and the rest are summed into one last entry named `Others`, present only when something was merged.
 */
export const subscriptionRenderGroups = (
  environments: readonly RenderEnvironment[],
  rows: readonly SubscriptionRenderRow[],
  query: RenderQuery,
): SubscriptionRendersModel[] => {
  const known = new Map(environments.map((environment) => [environment.guid, environment]));
  const groups = emptyGroups(query, () => new Map<string, Counts>());
  const overall = new Map<string, number>();
  for (const row of rows) {
    if (!inRange(query, row.day) || !known.has(row.environmentGuid)) continue;
    const group = groups.get(groupOf(query, row.day));
    if (!group) continue;
    const counts = group.get(row.environmentGuid) ?? { renders: 0, watermarked: 0 };
    if (row.watermarked) counts.watermarked += row.count;
    else counts.renders += row.count;
    group.set(row.environmentGuid, counts);
    if (!row.watermarked)
      overall.set(row.environmentGuid, (overall.get(row.environmentGuid) ?? 0) + row.count);
  }

  let listed = [...environments];
  if (query.top !== undefined && query.top < environments.length) {
    listed = [...environments]
      .sort((a, b) => (overall.get(b.guid) ?? 0) - (overall.get(a.guid) ?? 0) || typeThenName(a, b))
      .slice(0, query.top);
  }
  const listedGuids = new Set(listed.map((environment) => environment.guid));
  const merged = environments.filter((environment) => !listedGuids.has(environment.guid));

  return [...groups].map(([day, group]) => {
    const countsOf = (environment: RenderEnvironment): Counts =>
      group.get(environment.guid) ?? { renders: 0, watermarked: 0 };
    const entries: EnvironmentRenderInformation[] = [...listed]
      .sort((a, b) => {
        const byType = environmentTypeOrder[a.type] - environmentTypeOrder[b.type];
        return byType || countsOf(b).renders - countsOf(a).renders || typeThenName(a, b);
      })
      .map((environment) => {
        const counts = countsOf(environment);
        return { name: environment.name, renders: counts.renders, watermarkedRenders: counts.watermarked };
      });
    if (merged.length > 0) {
      const others = { name: OTHERS_NAME, renders: 0, watermarkedRenders: 0 };
      for (const environment of merged) {
        const counts = countsOf(environment);
        others.renders += counts.renders;
        others.watermarkedRenders += counts.watermarked;
      }
      entries.push(others);
    }
    let totalRenders = 0;
    let totalWatermarkedRenders = 0;
    for (const counts of group.values()) {
      totalRenders += counts.renders;
      totalWatermarkedRenders += counts.watermarked;
    }
    return { date: groupDateTime(day), totalRenders, totalWatermarkedRenders, environments: entries };
  });
};
