export { daysLeftInMonth } from "../calendar";
export { type TrailingAverage, trailingAverage } from "./average";
export {
  type BudgetConfig,
  budgetConfigJsonSchema,
  configuredGates,
  DEFAULT_LEVELS,
  DEFAULT_QUANTILE,
  DEFAULT_SPIKE_FACTOR,
  DEFAULT_SPIKE_WINDOW_DAYS,
  DEFAULT_TRAILING_DAYS,
  mandatoryGates,
  parseBudgetConfig,
  type Quantile,
  type ResolvedBudgetConfig,
  RULE_NAMES,
  RULE_SETTINGS,
  THRESHOLD_OF,
} from "./config";
export { dailySpikeRule, MIN_SPIKE_DAYS } from "./daily-spike";
export { budgetRules, evaluate, type ForecastPathDay, forecastPath } from "./engine";
export { forecastMonthEnd, type MonthForecast } from "./forecast";
export { minBalanceRule } from "./min-balance";
export { minRunwayDaysRule } from "./min-runway-days";
export { monthlyBudgetRule } from "./monthly-budget";
export type { BudgetRule } from "./rule";
export { RULE_INFO, type RuleInfo } from "./rule-info";
export { type Runway, runwayDays } from "./runway";
export type * from "./types";
export { noVerdictReason, verdictOf } from "./verdict";
