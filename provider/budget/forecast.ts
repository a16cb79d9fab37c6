/**
 * Month-to-date spend and the month-end forecast.
 */
import Big = require("big.js");

import { dayString, monthPosition } from "../calendar";
import { dailyRateOf, type TrailingAverage, trailingOf } from "./average";
import { type BudgetConfig, parseBudgetConfig } from "./config";
import { cents, fromCents, wholeCents } from "./money";
import { centsBetween, type Series, toSeries, totalBetween } from "./series";
import type { BudgetInput } from "./types";

/** MonthForecast is what the current UTC month has cost so far and is forecast to cost by its end. */
export interface MonthForecast {
  /** Sum of `totalAmount` from the 1st of the month to today, today's partial day included. */
  monthToDate: number;
  /** `monthToDate + dailyRate × daysLeft`, rounded to cents. */
  forecast: number;
  /** The trailing daily average, in cents (see `trailingAverage`). */
  dailyAverage: number;
  /** The extra daily cost assumed from tomorrow on, in cents (negative for deletions). */
  extraDailyCost: number;
  /** `max(0, dailyAverage + extraDailyCost)`: the spend per day assumed for the rest of the month. */
  dailyRate: number;
  /** Whole days after today until the end of the month: 0 on the last day of the month. */
  daysLeft: number;
  /** Length of the month: 28, 29, 30 or 31. */
  daysInMonth: number;
  /** Today, `YYYY-MM-DD` (UTC). */
  today: string;
  /** Last day of the month, `YYYY-MM-DD`. */
  monthEnd: string;
}

/**
 * forecastOf forecasts a normalized series from its trailing average.
 * @internal
 */
export function forecastOf(series: Series, trailing: TrailingAverage, extraDailyCost: number): MonthForecast {
  const month = monthPosition(series.today);
  const c = centsBetween(series, month.first, series.today);
  const monthToDate = c !== undefined ? fromCents(c) : cents(totalBetween(series, month.first, series.today));
  const dailyRate = dailyRateOf(trailing.average, extraDailyCost);
  const m = wholeCents(monthToDate);
  const r = wholeCents(dailyRate);
  const sum = m !== undefined && r !== undefined ? m + r * month.daysLeft : undefined;
  const forecast =
    sum !== undefined && Number.isSafeInteger(sum)
      ? fromCents(sum)
      : cents(new Big(monthToDate).plus(new Big(dailyRate).times(month.daysLeft)));
  return {
    monthToDate,
    forecast,
    dailyAverage: trailing.average,
    extraDailyCost: cents(extraDailyCost),
    dailyRate,
    daysLeft: month.daysLeft,
    daysInMonth: month.length,
    today: dayString(series.today),
    monthEnd: dayString(month.last),
  };
}

/**
 * forecastMonthEnd is the month-to-date spend plus the daily rate times the days left in the UTC month
 * after today. Month to date is the sum of `totalAmount` from the 1st to today, today's partial charge
 * included (on the 1st it is today's charge alone). The daily rate is the trailing average (see
 * `trailingAverage`) plus `extraDailyCost` (a planned change; negative for deletions), never below 0.
 * Days left is the month's length (28–31, leap years included) minus today's day of the month, so 0 on
 * the last day, when the forecast equals the month to date.
 *
 * @example
 * // input.now is 2026-11-21T09:00:00Z; 31,200.50 spent since 1 November; trailing average 2,000.00/day
 * const f = forecastMonthEnd(input, { extraDailyCost: 48 }); // after a change adding 48.00/day
 * f.daysLeft; // 9
 * f.dailyRate; // 2048
 * f.forecast; // 49632.5 (31,200.50 + 9 × 2,048.00)
 */
export function forecastMonthEnd(
  input: Pick<BudgetInput, "consumption" | "now">,
  opts: Pick<BudgetConfig, "trailingDays" | "extraDailyCost"> = {},
): MonthForecast {
  const cfg = parseBudgetConfig({ trailingDays: opts.trailingDays, extraDailyCost: opts.extraDailyCost });
  const series = toSeries(input);
  return forecastOf(series, trailingOf(series, cfg.trailingDays), cfg.extraDailyCost);
}
