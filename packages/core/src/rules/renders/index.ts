export { currentMonthRange, type DayRange, formatDay, parseDay, trailingDaysRange } from './dates.ts';
export {
  type EnvironmentRenderRow,
  environmentRenderGroups,
  OTHERS_NAME,
  type RenderEnvironment,
  type RenderRow,
  type SubscriptionRenderRow,
  subscriptionRenderGroups,
} from './groups.ts';
export {
  DEFAULT_DAY_GROUPS,
  DEFAULT_MONTH_GROUPS,
  MAX_DAY_GROUPS,
  MAX_MONTH_GROUPS,
  parseRenderQuery,
  RENDER_GROUP_BY,
  type RenderGroupBy,
  type RenderQuery,
} from './query.ts';
export { planRangeSum, type SumPlan, splitWholeMonths, type WholeMonthSplit } from './whole-months.ts';
