/**
 * monthly-budget: month-to-date spend, and by default the month-end forecast, within `monthlyBudget`.
 */
import Big = require("big.js");

import { plural } from "../words";
import { formatDayOfMonth, formatMoney } from "./money";
import { type BudgetRule, changeNote, confidenceNote, notConfigured } from "./rule";
import { RULE_INFO } from "./rule-info";

/**
 * monthlyBudgetRule passes when the forecast model's month-end quantile (`quantile`, default p80) is at
 * most `monthlyBudget`, or with `forecast: false` — or under 3 days of charges, when there is no
 * forecast — when the month-to-date spend is. It is `not-configured` when `monthlyBudget` is not set. Mandatory by
 * default.
 */
export const monthlyBudgetRule: BudgetRule = {
  ...RULE_INFO["monthly-budget"],
  check(ctx) {
    const { input, config, forecast: f } = ctx;
    if (config.monthlyBudget === undefined) return notConfigured(ctx, "monthly-budget", "monthlyBudget");
    const budget = config.monthlyBudget;
    const q = config.quantile;
    const byModel = config.forecastMethod === "model";
    const modelEnd = byModel ? ctx.model.monthEnd?.[q] : undefined;
    const who = `Project ${input.projectId}`;
    const by = formatDayOfMonth(f.monthEnd);
    const change = changeNote(f.extraDailyCost);
    // what every outcome reports, and the judgement of an amount against the budget
    const base = {
      monthToDate: f.monthToDate,
      monthlyBudget: budget,
      daysLeft: f.daysLeft,
      daysInMonth: f.daysInMonth,
      monthEnd: f.monthEnd,
    };
    const within = (amount: number) => (new Big(amount).lte(budget) ? "pass" : "fail");
    const modelOf = { method: ctx.model.method, confidence: ctx.model.confidence };
    if (config.forecast && modelEnd !== undefined) {
      return {
        status: within(modelEnd),
        message:
          `${who} spent ${formatMoney(f.monthToDate)} this month and is ${q.slice(1)} % likely to spend ` +
          `at most ${formatMoney(modelEnd)} by ${by}${change}; the monthly budget is ${formatMoney(budget)}` +
          `${confidenceNote(ctx)}.`,
        figures: {
          ...base,
          forecastMonthEnd: modelEnd,
          quantile: q,
          forecastChecked: true,
          ...modelOf,
          historyDays: ctx.model.historyDays,
          extraDailyCost: f.extraDailyCost,
        },
      };
    }
    if (config.forecast && byModel) {
      // cold start: under 3 days of charges, no forecast; the month to date is all there is to judge
      return {
        status: within(f.monthToDate),
        message:
          `${who} spent ${formatMoney(f.monthToDate)} this month; ${chargedDays(ctx.model.historyDays)} ` +
          `there is no forecast yet (3 are needed), so only the month to date is checked against ` +
          `the monthly budget of ${formatMoney(budget)}.`,
        figures: {
          ...base,
          forecastMonthEnd: null,
          forecastChecked: false,
          ...modelOf,
          historyDays: ctx.model.historyDays,
        },
      };
    }
    if (config.forecast) {
      // forecastMethod: trailing-mean
      return {
        status: within(f.forecast),
        message:
          `${who} spent ${formatMoney(f.monthToDate)} this month and is forecast to spend ` +
          `${formatMoney(f.forecast)} by ${by}${change}; the monthly budget is ${formatMoney(budget)}.`,
        figures: {
          ...base,
          forecastMonthEnd: f.forecast,
          forecastChecked: true,
          method: "trailing-mean",
          dailyAverage: f.dailyAverage,
          extraDailyCost: f.extraDailyCost,
          dailyRate: f.dailyRate,
        },
      };
    }
    const expectedEnd = (byModel ? ctx.model.monthEnd?.p50 : undefined) ?? f.forecast;
    return {
      status: within(f.monthToDate),
      message:
        `${who} spent ${formatMoney(f.monthToDate)} this month; the monthly budget is ${formatMoney(budget)}. ` +
        `It is forecast to spend ${formatMoney(expectedEnd)} by ${by}${change}, which the policy does not check.`,
      figures: {
        ...base,
        forecastMonthEnd: expectedEnd,
        forecastChecked: false,
        ...modelOf,
        extraDailyCost: f.extraDailyCost,
      },
    };
  },
};

/** chargedDays says how many full days of charges the forecast had: none reads as none, not "0 full days". */
function chargedDays(days: number): string {
  return days === 0 ? "with no day of charges" : `with ${plural(days, "full day")} of charges`;
}
