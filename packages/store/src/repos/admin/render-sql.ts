import { planRangeSum, splitWholeMonths } from '@platform/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Values } from './prepared.ts';
import type { RenderDays, RenderScope } from './renders.ts';

/** SQL fragments of the render statements, shared by the statements that combine them with other reads. */

/**
 * The environments counted. As `= any(array(...))` rather than `in (select ...)`: the planner then reads the
 * (environment_id, day) primary key per environment instead of hash-joining a scan of the whole roll-up, which
 * made a week of a 50-environment subscription cost as much as a year.
 */
const environmentIds = (scope: RenderScope, shape: Shape): SQL =>
  'environmentId' in scope
    ? sql`environment_id = ${shape.id}`
    : sql`environment_id = any(array(select id from environments where subscription_id = ${shape.id}))`;

const scopeKey = (scope: RenderScope) => ('environmentId' in scope ? 'e' : 's');
const scopeId = (scope: RenderScope) =>
  'environmentId' in scope ? scope.environmentId : scope.subscriptionId;

/**
 * The statements below vary in shape with their day ranges (how many edge ranges, whether whole months are read):
 * each shape is one prepared statement, its dates placeholders `d0`, `d1`, … filled in the order they appear.
 * `id` is the scope's id in SQL: the placeholder `scope`, or an expression of an enclosing statement.
 */
export type Shape = { key: string; values: Values; id: SQL; date: (day: string) => SQL };

export const newShape = (scope: RenderScope, prefix: string, id?: SQL): Shape => {
  const values: Values = id ? {} : { scope: scopeId(scope) };
  let next = 0;
  return {
    key: `${prefix}_${scopeKey(scope)}`,
    values,
    id: id ?? sql`${sql.placeholder('scope')}::int`,
    date(day) {
      const name = `d${next++}`;
      values[name] = day;
      return sql`${sql.placeholder(name)}::date`;
    },
  };
};

/**
 * The roll-up rows (environment_id, day, kind, watermarked, count) that count `days`: whole months from
 * `render_monthly` (`day` is then the month's first day), the partial months at the edges from `render_daily`.
 * A year of a subscription is then a few thousand rows, not a few hundred thousand. With `monthly: false`, every
 * day comes from `render_daily` (callers that group by day). Adds the shape of the ranges to `shape.key`.
 */
export const rollupRows = (scope: RenderScope, days: RenderDays, monthly: boolean, shape: Shape): SQL => {
  const ids = environmentIds(scope, shape);
  const split = monthly ? splitWholeMonths(days) : { months: undefined, days: [days] };
  shape.key += `_${split.days.length}${split.months ? 'm' : ''}`;
  const parts: SQL[] = split.days.map(
    (range) => sql`select environment_id, day, kind, watermarked, count from render_daily
      where ${ids} and day between ${shape.date(range.startDay)} and ${shape.date(range.endDay)}`,
  );
  if (split.months) {
    parts.push(sql`select environment_id, month as day, kind, watermarked, count from render_monthly
      where ${ids} and month between ${shape.date(split.months.first)} and ${shape.date(split.months.last)}`);
  }
  return sql.join(parts, sql` union all `);
};

/**
 * The rows (part, watermarked, count) whose sums per part are the totals of `ranges[part]`, or undefined when
 * no range reads anything. Adds the plans' shape to `shape.key`.
 */
export const rangeSumRows = (
  scope: RenderScope,
  ranges: readonly RenderDays[],
  shape: Shape,
): SQL | undefined => {
  const ids = environmentIds(scope, shape);
  const parts = ranges.flatMap((days, i) => {
    const plan = planRangeSum(days);
    shape.key += `_${plan.months.length}${plan.days.length}${plan.minus.length}`;
    const read =
      (table: 'render_monthly' | 'render_daily', column: 'month' | 'day', sign: '' | '-') =>
      (range: { first: string; last: string }) =>
        sql`select ${sql.raw(String(i))} as part, watermarked, ${sql.raw(sign)}count as count from ${sql.raw(table)}
          where ${ids} and ${sql.raw(column)} between ${shape.date(range.first)} and ${shape.date(range.last)}`;
    const asMonths = (r: RenderDays) => ({ first: r.startDay, last: r.endDay });
    return [
      ...plan.months.map(read('render_monthly', 'month', '')),
      ...plan.days.map(asMonths).map(read('render_daily', 'day', '')),
      ...plan.minus.map(asMonths).map(read('render_daily', 'day', '-')),
    ];
  });
  return parts.length === 0 ? undefined : sql.join(parts, sql` union all `);
};
