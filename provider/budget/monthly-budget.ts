/**
 * monthly-budget: month-to-date spend, and by default the month-end forecast, within `monthlyBudget`.
 */
import Big from "big.js";
import { formatDayOfMonth, formatMoney } from "./money";
import { type BudgetRule, changeNote, confidenceNote, notConfigured, plural } from "./rule";

/**
 * monthlyBudgetRule passes when the forecast model's month-end quantile (`quantile`, default p80) is at
 * most `monthlyBudget`, or with `forecast: false` — or under 3 days of charges, when there is no
 * forecast — when the month-to-date spend is. It is skipped when `monthlyBudget` is not set. Mandatory by
 * default.
 */
export const monthlyBudgetRule: BudgetRule = {
  name: "monthly-budget",
  description: "The project's spend this month, forecast to the month's end, stays within a budget.",
  defaultLevel: "mandatory",
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
    if (config.forecast && modelEnd !== undefined) {
      const status = new Big(modelEnd).lte(budget) ? "pass" : "fail";
      return {
        status,
        message:
          `${who} spent ${formatMoney(f.monthToDate)} this month and is ${q.slice(1)} % likely to spend ` +
          `at most ${formatMoney(modelEnd)} by ${by}${change}; the monthly budget is ${formatMoney(budget)}` +
          `${confidenceNote(ctx)}.`,
        figures: {
          monthToDate: f.monthToDate,
          forecastMonthEnd: modelEnd,
          quantile: q,
          monthlyBudget: budget,
          forecastChecked: true,
          method: ctx.model.method,
          confidence: ctx.model.confidence,
          historyDays: ctx.model.historyDays,
          extraDailyCost: f.extraDailyCost,
          daysLeft: f.daysLeft,
          daysInMonth: f.daysInMonth,
          monthEnd: f.monthEnd,
        },
      };
    }
    if (config.forecast && byModel) {
      // cold start: under 3 days of charges, no forecast; the month to date is all there is to judge
      const status = new Big(f.monthToDate).lte(budget) ? "pass" : "fail";
      return {
        status,
        message:
          `${who} spent ${formatMoney(f.monthToDate)} this month; with ${plural(ctx.model.historyDays, "full day")} ` +
          `of charges there is no forecast yet (3 are needed), so only the month to date is checked against ` +
          `the monthly budget of ${formatMoney(budget)}.`,
        figures: {
          monthToDate: f.monthToDate,
          forecastMonthEnd: null,
          monthlyBudget: budget,
          forecastChecked: false,
          method: ctx.model.method,
          confidence: ctx.model.confidence,
          historyDays: ctx.model.historyDays,
          daysLeft: f.daysLeft,
          daysInMonth: f.daysInMonth,
          monthEnd: f.monthEnd,
        },
      };
    }
    if (config.forecast) {
      // forecastMethod: trailing-mean
      const status = new Big(f.forecast).lte(budget) ? "pass" : "fail";
      return {
        status,
        message:
          `${who} spent ${formatMoney(f.monthToDate)} this month and is forecast to spend ` +
          `${formatMoney(f.forecast)} by ${by}${change}; the monthly budget is ${formatMoney(budget)}.`,
        figures: {
          monthToDate: f.monthToDate,
          forecastMonthEnd: f.forecast,
          monthlyBudget: budget,
          forecastChecked: true,
          method: "trailing-mean",
          dailyAverage: f.dailyAverage,
          extraDailyCost: f.extraDailyCost,
          dailyRate: f.dailyRate,
          daysLeft: f.daysLeft,
          daysInMonth: f.daysInMonth,
          monthEnd: f.monthEnd,
        },
      };
    }
    const expectedEnd = (byModel ? ctx.model.monthEnd?.p50 : undefined) ?? f.forecast;
    const status = new Big(f.monthToDate).lte(budget) ? "pass" : "fail";
    return {
      status,
      message:
        `${who} spent ${formatMoney(f.monthToDate)} this month; the monthly budget is ${formatMoney(budget)}. ` +
        `It is forecast to spend ${formatMoney(expectedEnd)} by ${by}${change}, which the policy does not check.`,
      figures: {
        monthToDate: f.monthToDate,
        forecastMonthEnd: expectedEnd,
        monthlyBudget: budget,
        forecastChecked: false,
        method: ctx.model.method,
        confidence: ctx.model.confidence,
        extraDailyCost: f.extraDailyCost,
        daysLeft: f.daysLeft,
        daysInMonth: f.daysInMonth,
        monthEnd: f.monthEnd,
      },
    };
  },
};
