/**
 * The trailing daily average: what a project spends per day lately, from full days only.
 */
import Big = require("big.js");

import { dayString } from "../calendar";
import { type BudgetConfig, parseBudgetConfig } from "./config";
import { cents, fromCents, quotientHalfAway, wholeCents } from "./money";
import { centsBetween, coveredFrom, type Series, toSeries, totalBetween } from "./series";
import type { BudgetInput } from "./types";

/** TrailingAverage is the trailing daily average and the span it was taken over. */
export interface TrailingAverage {
  /** Average `totalAmount` per day over the span, rounded to cents; 0 when the span is empty. */
  average: number;
  /** Sum of `totalAmount` over the span, rounded to cents. */
  total: number;
  /** Number of days in the span (missing days included as zero); 0 when there is no full day of data. */
  days: number;
  /** First day of the span (`YYYY-MM-DD`), or `null` when the span is empty. */
  from: string | null;
  /** Last day of the span: always yesterday when the span is not empty, else `null`. */
  to: string | null;
}

/**
 * trailingOf computes the trailing average of a normalized series.
 * @internal
 */
export function trailingOf(series: Series, trailingDays: number): TrailingAverage & { exact: Big } {
  const to = series.today - 1;
  const from = coveredFrom(series, series.today - trailingDays, to);
  if (from === null) return { average: 0, total: 0, days: 0, from: null, to: null, exact: new Big(0) };
  const days = to - from + 1;
  const c = centsBetween(series, from, to);
  if (c !== undefined) {
    // whole cents: the average in integers, rounded as cents() rounds the decimal quotient
    return {
      average: fromCents(quotientHalfAway(c, days)),
      total: fromCents(c),
      days,
      from: dayString(from),
      to: dayString(to),
      get exact() {
        return totalBetween(series, from, to).div(days);
      },
    };
  }
  const total = totalBetween(series, from, to);
  const exact = total.div(days);
  return {
    average: cents(exact),
    total: cents(total),
    days,
    from: dayString(from),
    to: dayString(to),
    exact,
  };
}

/**
 * trailingAverage is the average daily charge over the last `trailingDays` (default 7) FULL UTC days
 * before today; today's partial day is never part of it.
 *
 * The span is yesterday and the `trailingDays - 1` days before it, except that it starts no earlier than
 * the first day present in `consumption` (a project created 3 days ago is averaged over 3 days, not 7).
 * Within the span a missing day counts as a zero charge. With no consumption, or none before today, the
 * span is empty and the average is 0.
 *
 * @example
 * trailingAverage({
 *   now: new Date("2026-11-22T10:00:00Z"),
 *   consumption: [
 *     { day: "2026-11-20", totalAmount: 100, totalBonuses: 0 },
 *     // 2026-11-21 missing: counted as 0
 *     { day: "2026-11-22", totalAmount: 999, totalBonuses: 0 }, // today: not counted
 *   ],
 * }); // { average: 50, total: 100, days: 2, from: "2026-11-20", to: "2026-11-21" }
 */
export function trailingAverage(
  input: Pick<BudgetInput, "consumption" | "now">,
  opts: Pick<BudgetConfig, "trailingDays"> = {},
): TrailingAverage {
  const { trailingDays } = parseBudgetConfig({ trailingDays: opts.trailingDays });
  const { average, total, days, from, to } = trailingOf(toSeries(input), trailingDays);
  return { average, total, days, from, to };
}

/**
 * dailyRateOf is the spend per day used for the forecast and the runway: the trailing average plus the
 * extra daily cost, both in cents, never below 0 (deleting more than is spent does not earn money).
 * @internal
 */
export function dailyRateOf(average: number, extraDailyCost: number): number {
  const a = wholeCents(average);
  const e = wholeCents(cents(extraDailyCost));
  if (a !== undefined && e !== undefined) return Math.max(0, fromCents(a + e));
  return Math.max(0, cents(new Big(average).plus(cents(extraDailyCost))));
}
