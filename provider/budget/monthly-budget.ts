/**
 * monthly-budget: month-to-date spend, and by default the month-end forecast, within `monthlyBudget`.
 */
import Big from "big.js";
import { formatDayOfMonth, formatMoney } from "./money";
import { type BudgetRule, changeNote, notConfigured } from "./rule";

/**
 * monthlyBudgetRule passes when the month-end forecast (see `forecastMonthEnd`) is at most
 * `monthlyBudget`, or with `forecast: false` when the month-to-date spend is. It is skipped when
 * `monthlyBudget` is not set. Mandatory by default.
 */
export const monthlyBudgetRule: BudgetRule = {
  name: "monthly-budget",
  description: "The project's spend this month, forecast to the month's end, stays within a budget.",
  defaultLevel: "mandatory",
  check(ctx) {
    const { input, config, forecast: f } = ctx;
    if (config.monthlyBudget === undefined) return notConfigured(ctx, "monthly-budget", "monthlyBudget");
    const budget = config.monthlyBudget;
    const checked = config.forecast ? f.forecast : f.monthToDate;
    const status = new Big(checked).lte(budget) ? "pass" : "fail";
    const who = `Project ${input.projectId}`;
    const by = formatDayOfMonth(f.monthEnd);
    const change = changeNote(f.extraDailyCost);
    const message = config.forecast
      ? `${who} spent ${formatMoney(f.monthToDate)} this month and is forecast to spend ` +
        `${formatMoney(f.forecast)} by ${by}${change}; the monthly budget is ${formatMoney(budget)}.`
      : `${who} spent ${formatMoney(f.monthToDate)} this month; the monthly budget is ${formatMoney(budget)}. ` +
        `It is forecast to spend ${formatMoney(f.forecast)} by ${by}${change}, which the policy does not check.`;
    return {
      status,
      message,
      figures: {
        monthToDate: f.monthToDate,
        forecastMonthEnd: f.forecast,
        monthlyBudget: budget,
        forecastChecked: config.forecast,
        dailyAverage: f.dailyAverage,
        extraDailyCost: f.extraDailyCost,
        dailyRate: f.dailyRate,
        daysLeft: f.daysLeft,
        daysInMonth: f.daysInMonth,
        monthEnd: f.monthEnd,
      },
    };
  },
};
