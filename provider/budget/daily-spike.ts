/**
 * daily-spike: the last full day costs no more than `spikeFactor` times the median of the days before it.
 */
import Big = require("big.js");

import { dayString } from "../calendar";
import { cents, formatFixed1, formatMoney, formatNumber, tenths } from "./money";
import type { BudgetRule } from "./rule";
import { RULE_INFO } from "./rule-info";
import { amountOn, coveredFrom, type Series } from "./series";

/** MIN_SPIKE_DAYS is how many days before the last full day the spike rule needs to take a median. */
export const MIN_SPIKE_DAYS = 3;

/**
 * SpikeWindow is the last full day and the days before it that its median is taken over.
 * @internal
 */
export interface SpikeWindow {
  /** Yesterday relative to `now`. */
  day: number;
  amount: Big;
  /** Amounts of the window's days, missing days as 0, oldest first. */
  prior: Big[];
}

/**
 * spikeWindowOf takes the `windowDays` days before the last full day, starting no earlier than the
 * series' first day (as the trailing average does).
 * @internal
 */
export function spikeWindowOf(series: Series, windowDays: number): SpikeWindow {
  const day = series.today - 1;
  const from = coveredFrom(series, day - windowDays, day - 1);
  const prior: Big[] = [];
  if (from !== null) for (let d = from; d < day; d++) prior.push(amountOn(series, d));
  return { day, amount: amountOn(series, day), prior };
}

/**
 * median of amounts: the middle one, or the mean of the two middle ones.
 * @internal
 */
export function median(values: readonly Big[]): Big {
  const sorted = [...values].sort((a, b) => a.cmp(b));
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] ?? new Big(0);
  if (sorted.length % 2 === 1) return hi;
  return hi.plus(sorted[mid - 1] ?? hi).div(2);
}

/**
 * dailySpikeRule fails when the last full UTC day (yesterday) cost more than `spikeFactor` (default 2)
 * times the median of the `spikeWindowDays` (default 14) days before it, missing days counted as 0 and
 * days before the first day of data left out. It is not judged (`not-judged`, saying why) with fewer
 * than 3 such days. Advisory by default.
 */
export const dailySpikeRule: BudgetRule = {
  ...RULE_INFO["daily-spike"],
  check({ input, config, series }) {
    const w = spikeWindowOf(series, config.spikeWindowDays);
    const who = `Project ${input.projectId}`;
    const day = dayString(w.day);
    const amount = cents(w.amount);
    const factor = config.spikeFactor;
    if (w.prior.length < MIN_SPIKE_DAYS) {
      const had = w.prior.length === 1 ? "1 day" : `${w.prior.length} days`;
      return {
        status: "not-judged",
        message: `The daily-spike rule is not judged for project ${input.projectId}: it has ${had} of charges before ${day} and needs at least ${MIN_SPIKE_DAYS}.`,
        figures: {
          day,
          amount,
          medianDays: w.prior.length,
          median: null,
          ratio: null,
          factor,
          threshold: null,
        },
      };
    }
    const med = median(w.prior);
    const threshold = med.times(factor);
    const status = w.amount.gt(threshold) ? "fail" : "pass";
    const ratio = med.gt(0) ? tenths(w.amount.div(med)) : null;
    const against =
      ratio === null
        ? `against the ${w.prior.length}-day median of ${formatMoney(cents(med))}`
        : `${formatFixed1(ratio)} times the ${w.prior.length}-day median of ${formatMoney(cents(med))}`;
    const flags =
      status === "fail"
        ? `the policy flags ${formatNumber(factor)} times`
        : `the policy flags days above ${formatNumber(factor)} times the median`;
    const sep = ratio === null ? " " : ", ";
    return {
      status,
      message: `${who} spent ${formatMoney(amount)} on ${day}${sep}${against}; ${flags}.`,
      figures: {
        day,
        amount,
        medianDays: w.prior.length,
        median: cents(med),
        ratio,
        factor,
        threshold: cents(threshold),
      },
    };
  },
};
