/**
 * The engine: runs the configured rules over one project's input and gives the verdict.
 */
import { trailingOf } from "./average";
import { type BudgetConfig, parseBudgetConfig } from "./config";
import { dailySpikeRule } from "./daily-spike";
import { dayString } from "./days";
import { forecastOf } from "./forecast";
import { minBalanceRule } from "./min-balance";
import { minRunwayDaysRule } from "./min-runway-days";
import { cents } from "./money";
import { monthlyBudgetRule } from "./monthly-budget";
import type { BudgetRule, RuleContext } from "./rule";
import { availableOf, runwayOf } from "./runway";
import { amountOn, checkInput, toSeries } from "./series";
import type { BudgetInput, Evaluation, Finding } from "./types";

/** budgetRules lists every budget rule, in the order `evaluate` runs them. */
export const budgetRules: readonly BudgetRule[] = [
  minBalanceRule,
  monthlyBudgetRule,
  minRunwayDaysRule,
  dailySpikeRule,
];

/**
 * evaluate runs every budget rule over one project's balance and consumption and returns one finding per
 * rule, the figures behind them and the verdict: `fail` if and only if a `mandatory` finding failed.
 * Nothing is thrown for a failed rule; a bad input or configuration throws a `ConfigError` naming the
 * field. The result is plain JSON (an infinite runway is `null`).
 *
 * `config.extraDailyCost` evaluates the project "after a change": the cost is added to the trailing
 * average for the forecast and the runway (negative for deletions), not to what was already spent.
 *
 * @example
 * const result = evaluate(
 *   { projectId: 4242, balance: 12400, bonuses: 0, consumption, now: new Date() },
 *   { minBalance: 20000, monthlyBudget: 50000, minRunwayDays: 14, levels: { "daily-spike": "disabled" } },
 * );
 * if (result.verdict === "fail") {
 *   for (const f of result.findings) if (f.status === "fail") console.error(`${f.level}: ${f.message}`);
 * }
 */
export function evaluate(input: BudgetInput, config: BudgetConfig = {}): Evaluation {
  const cfg = parseBudgetConfig(config);
  checkInput(input, ["projectId", "balance", "bonuses"]);
  const series = toSeries(input);
  const trailing = trailingOf(series, cfg.trailingDays);
  const forecast = forecastOf(series, trailing, cfg.extraDailyCost);
  const runway = runwayOf(
    availableOf(input.balance, input.bonuses, cfg.includeBonuses),
    trailing,
    cfg.extraDailyCost,
  );
  const ctx: RuleContext = { input, config: cfg, series, trailing, forecast, runway };

  const findings = budgetRules.map((rule): Finding => {
    const level = cfg.levels[rule.name];
    if (level === "disabled") {
      return {
        rule: rule.name,
        level,
        status: "skip",
        message: `The ${rule.name} rule is disabled for project ${input.projectId}.`,
        figures: {},
      };
    }
    const { status, message, figures } = rule.check(ctx);
    return { rule: rule.name, level, status, message, figures };
  });

  const lastFullDay = series.today - 1;
  return {
    projectId: input.projectId,
    findings,
    figures: {
      balance: cents(input.balance),
      bonuses: cents(input.bonuses),
      monthToDate: forecast.monthToDate,
      forecastMonthEnd: forecast.forecast,
      dailyAverage: trailing.average,
      extraDailyCost: forecast.extraDailyCost,
      runwayDays: runway.days,
      lastFullDay: dayString(lastFullDay),
      lastFullDayAmount: cents(amountOn(series, lastFullDay)),
    },
    verdict: findings.some((f) => f.level === "mandatory" && f.status === "fail") ? "fail" : "pass",
  };
}
