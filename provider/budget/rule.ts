/**
 * The shape every budget rule shares, and the wording helpers their messages use.
 */

import { plural } from "../words";
import type { TrailingAverage } from "./average";
import type { BudgetConfig, ResolvedBudgetConfig } from "./config";
import type { MonthForecast } from "./forecast";
import { formatMoney } from "./money";
import type { RuleInfo } from "./rule-info";
import type { Runway } from "./runway";
import type { Series } from "./series";
import type { BudgetInput, Finding, ForecastFigures, RuleName } from "./types";

/**
 * RuleContext is what a rule's check reads: the validated input and configuration, and the figures
 * computed once for all rules.
 * @internal
 */
export interface RuleContext {
  input: BudgetInput;
  config: ResolvedBudgetConfig;
  series: Series;
  trailing: TrailingAverage;
  forecast: MonthForecast;
  runway: Runway;
  /** The forecast model's quantiles, method and confidence. */
  model: ForecastFigures;
}

/**
 * RuleOutcome is a finding before the engine gives it its configured level.
 * @internal
 */
export type RuleOutcome = Omit<Finding, "rule" | "level">;

/**
 * BudgetRule is one budget rule: what it is ({@link RuleInfo}, declared in rule-info.ts: name, one
 * sentence, default level, settings, threshold, severity, remediation) and its check.
 */
export interface BudgetRule extends RuleInfo<keyof BudgetConfig> {
  /** @internal */
  check(ctx: RuleContext): RuleOutcome;
}

/**
 * notConfigured is the `not-configured` outcome of a rule whose threshold is not set (never a `skip`:
 * that is only for a rule disabled on purpose).
 * @internal
 */
export function notConfigured(ctx: RuleContext, rule: RuleName, field: string): RuleOutcome {
  return {
    status: "not-configured",
    message: `The ${rule} rule is not configured for project ${ctx.input.projectId}: set ${field} to check it.`,
    figures: { [field]: null },
  };
}

/**
 * changeNote describes the extra daily cost in a message: "" when there is none.
 * @internal
 */
export function changeNote(extraDailyCost: number): string {
  if (extraDailyCost > 0) return ` after a change adding ${formatMoney(extraDailyCost)}/day`;
  if (extraDailyCost < 0) return ` after a change removing ${formatMoney(-extraDailyCost)}/day`;
  return "";
}

/**
 * confidenceNote is " (low confidence: run-rate over 9 days of history)" when the model's confidence is
 * low, and "" otherwise.
 * @internal
 */
export function confidenceNote(ctx: RuleContext): string {
  if (ctx.model.confidence !== "low") return "";
  const how = ctx.model.method === "run-rate" ? "a run-rate over " : "";
  return ` (low confidence: ${how}${plural(ctx.model.historyDays, "day")} of history)`;
}
