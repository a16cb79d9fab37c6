/**
 * The report's model: a project's balance, the charges of a period and the budget evaluation, with the
 * figures every rendering (terminal, HTML, Markdown, JSON) shows. Pure: no I/O, the clock is an argument.
 */

import { productName } from "../../provider/billing/products";
import type { ProjectBalance, ProjectConsumption } from "../../provider/billing/results";
import {
  type BudgetConfig,
  type Evaluation,
  forecastMonthEnd,
  type MonthForecast,
  parseBudgetConfig,
  type ResolvedBudgetConfig,
} from "../../provider/budget";
import { evaluateWithPath } from "../../provider/budget/engine";
import type { DailyCharge } from "../../provider/budget/types";
import { addDays, daysInMonthOf, isoDay } from "../../provider/calendar";
import { asOfEvaluation } from "../../provider/check";
import { cleanText } from "../../provider/text";

/** ReportDay is one day of the chart and the data table. */
export interface ReportDay {
  day: string;
  amount: number;
  bonuses: number;
  /** The monthly budget spread over the days of this day's month; null without a monthly budget. */
  allowance: number | null;
}

/**
 * ForecastDay is a day after today, to the end of the month: the forecast model's median spend that day
 * (`amount`, = p50) and its 80 % and 90 % bounds; with `forecastMethod: trailing-mean`, the trailing
 * rate and no bounds.
 */
export interface ForecastDay {
  day: string;
  amount: number;
  p80: number | null;
  p90: number | null;
  allowance: number | null;
}

/** Report is everything a rendering shows. */
export interface Report {
  /** When the report was made, ISO 8601 UTC. */
  generatedAt: string;
  projectId: number;
  productId: number;
  product: string;
  /** First and last day of the period shown, `YYYY-MM-DD`. */
  from: string;
  to: string;
  balance: ProjectBalance;
  /** The period's charges: one item per day (missing days as 0). */
  consumption: ProjectConsumption;
  days: ReportDay[];
  /**
   * Days after the last day shown up to the month's end, when the period ends today; else empty. Empty
   * too under 3 days of charges, when the model has no forecast.
   */
  forecastDays: ForecastDay[];
  /** The thresholds as resolved (defaults filled in). */
  config: ResolvedBudgetConfig;
  evaluation: Evaluation;
  forecast: MonthForecast;
  /** Today's daily allowance: monthly budget / days in the current month; null without a budget. */
  allowanceToday: number | null;
  /** The currency the amounts are in, as configured (`EUR`, `RUB`, `₽`); null when not set. */
  currency: string | null;
  /**
   * A replay as at the start of this day (`YYYY-MM-DD`): nothing of it or later was read, the balance
   * neither (its figures are 0 and the balance rules are not judged); null for a live report.
   */
  asOf: string | null;
}

/** ReportInput is what buildReport needs: the fetched data and the thresholds. */
export interface ReportInput {
  balance: ProjectBalance;
  /** The period to show. */
  consumption: ProjectConsumption;
  /**
   * Charges the rules look at: from the 1st of the month (or 15 days back) to today. Defaults to the
   * period's items, which is enough when the period covers those days.
   */
  evaluationItems?: DailyCharge[];
  config: BudgetConfig;
  now: Date;
  /** The currency to name beside amounts; the billing API does not report one. */
  currency?: string | undefined;
  /** A replay as at the start of this day; `now` is its 00:00 UTC. */
  asOf?: string | undefined;
}

/** daysInMonthOf is the length of the UTC month that contains a `YYYY-MM-DD` day (the one calendar's). */
export { daysInMonthOf };

/** allowanceOn is the monthly budget spread evenly over the days of the day's month. */
export function allowanceOn(day: string, monthlyBudget: number | undefined): number | null {
  if (monthlyBudget === undefined) return null;
  return Math.round((monthlyBudget / daysInMonthOf(day)) * 100) / 100;
}

/**
 * buildReport evaluates the budget rules and lays out the days of the chart.
 *
 * @example
 * const report = buildReport({ balance, consumption, config: { monthlyBudget: 40000 }, now: new Date() });
 * report.evaluation.verdict; // "pass" or "fail"
 */
export function buildReport(input: ReportInput): Report {
  const { balance, consumption, now } = input;
  const config = parseBudgetConfig(input.config);
  const items = input.evaluationItems ?? consumption.items;
  // the rules and the forecast band from one reading of the history
  const { evaluation: live, path } = evaluateWithPath(
    {
      projectId: balance.projectId,
      balance: balance.balance,
      bonuses: balance.bonuses,
      consumption: items,
      now,
    },
    input.config,
    { fromToday: !!input.asOf },
  );
  const evaluation = input.asOf ? asOfEvaluation(live, input.asOf) : live;
  const forecast = forecastMonthEnd(
    { consumption: items, now },
    { trailingDays: config.trailingDays, extraDailyCost: config.extraDailyCost },
  );
  const from = consumption.periodFrom.slice(0, 10);
  const today = isoDay(now);
  const periodEnd = consumption.periodTo.slice(0, 10);
  const to = periodEnd < today ? periodEnd : today;
  // the day the forecast starts: today, or the as-of day itself (its whole day is still to come)
  const chartEnd = input.asOf ? addDays(input.asOf, -1) : today;
  const byDay = new Map(consumption.items.map((i) => [i.day, i]));
  const days: ReportDay[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const item = byDay.get(d);
    days.push({
      day: d,
      amount: item?.totalAmount ?? 0,
      bonuses: item?.totalBonuses ?? 0,
      allowance: allowanceOn(d, config.monthlyBudget),
    });
  }
  const forecastDays: ForecastDay[] = [];
  if (to === chartEnd && config.forecastMethod === "model") {
    for (const p of path) {
      forecastDays.push({
        day: p.day,
        amount: p.p50,
        p80: p.p80,
        p90: p.p90,
        allowance: allowanceOn(p.day, config.monthlyBudget),
      });
    }
  } else if (to === chartEnd) {
    for (let i = input.asOf ? 0 : 1; i <= forecast.daysLeft; i++) {
      const d = addDays(today, i);
      forecastDays.push({
        day: d,
        amount: forecast.dailyRate,
        p80: null,
        p90: null,
        allowance: allowanceOn(d, config.monthlyBudget),
      });
    }
  }
  return {
    generatedAt: now.toISOString(),
    // a currency from a flag or a file is printed in every output: no control character reaches them
    currency: input.currency === undefined ? null : cleanText(input.currency) || null,
    asOf: input.asOf ?? null,
    projectId: balance.projectId,
    productId: balance.productId,
    product: productName(balance.productId),
    from,
    to,
    balance,
    consumption,
    days,
    forecastDays,
    config,
    evaluation,
    forecast,
    allowanceToday: allowanceOn(today, config.monthlyBudget),
  };
}
