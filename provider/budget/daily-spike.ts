/**
 * daily-spike: the last full day costs no more than `spikeFactor` times the median of the days before it.
 */
import Big = require("big.js");

import { dayString } from "../calendar";
import { cents, formatFixed1, formatMoney, formatNumber, fromCents, tenths } from "./money";
import type { BudgetRule } from "./rule";
import { RULE_INFO } from "./rule-info";
import { amountOn, centsOn, coveredFrom, type Series } from "./series";

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
 * The figures the rule judges and shows: whether the day is a spike, the median, the ratio (null when the
 * median is not above 0) and the threshold, each rounded as shown.
 * @internal
 */
export interface SpikeFigures {
  fail: boolean;
  median: number;
  ratio: number | null;
  threshold: number;
}

/**
 * spikeFiguresByBig judges a window in decimals: the median, times the factor, against the day.
 * @internal
 */
export function spikeFiguresByBig(amount: Big, prior: readonly Big[], factor: number): SpikeFigures {
  const med = median(prior);
  const threshold = med.times(factor);
  return {
    fail: amount.gt(threshold),
    median: cents(med),
    ratio: med.gt(0) ? tenths(amount.div(med)) : null,
    threshold: cents(threshold),
  };
}

/** roundHalfAway is n / d (d > 0) rounded to a whole number, half away from zero, as big.js rounds. */
function roundHalfAway(n: bigint, d: bigint): bigint {
  const q = (2n * (n < 0n ? -n : n) + d) / (2n * d);
  return n < 0n ? -q : q;
}

/**
 * A whole number of cents (or tenths) as the number big.js's rounding gives: the decimal read once (the
 * number nearest to it, even beyond 2^53 where Number(q) / 100 would round twice), never -0.
 */
const unitsOf = (q: bigint, decimals: 1 | 2) => (q === 0n ? 0 : Number(`${q}e-${decimals}`));

/**
 * spikeFiguresInCents is {@link spikeFiguresByBig} on whole cents, in integers: the median as a number of
 * half cents (the mean of the two middle days is one), the factor as the integer over a power of ten that
 * its shortest text writes (what big.js reads of it), products and comparisons in BigInt, each rounding
 * half away from zero. No rounding happens before the last one, and the quotients' denominators are at most
 * 2e15, so big.js's 20 decimals of a division never move a result. Undefined when the factor's text has an
 * exponent (1e-7, 1e21). A billing series of whole cents (nearly every one) is judged without big.js;
 * test/hostile/perf6.test.ts holds the two equal on any window and factor.
 * @internal
 */
export function spikeFiguresInCents(
  amount: number,
  prior: readonly number[],
  factor: number,
): SpikeFigures | undefined {
  const text = String(factor);
  if (prior.length === 0 || !/^-?\d+(\.\d+)?$/.test(text)) return undefined;
  const dot = text.indexOf(".");
  const scale = 10n ** BigInt(dot === -1 ? 0 : text.length - dot - 1);
  const f = BigInt(text.replace(".", ""));
  const sorted = Float64Array.from(prior).sort();
  const mid = Math.floor(sorted.length / 2);
  const hi = BigInt(sorted[mid] as number);
  // the median is m2 / 2 cents
  const m2 = sorted.length % 2 === 1 ? 2n * hi : hi + BigInt(sorted[mid - 1] as number);
  const a = BigInt(amount);
  return {
    // amount > m2 / 2 × f / scale
    fail: 2n * a * scale > m2 * f,
    median: unitsOf(roundHalfAway(m2, 2n), 2),
    ratio: m2 > 0n ? unitsOf(roundHalfAway(20n * a, m2), 1) : null,
    threshold: unitsOf(roundHalfAway(m2 * f, 2n * scale), 2),
  };
}

/**
 * spikeFiguresOf judges the window of {@link spikeWindowOf}: in cents when the series is kept in cents,
 * else in decimals.
 */
function spikeFiguresOf(series: Series, windowDays: number, factor: number): SpikeFigures {
  const c = series.cents;
  const day = series.today - 1;
  const from = coveredFrom(series, day - windowDays, day - 1);
  if (c && from !== null) {
    const prior: number[] = [];
    for (let d = from; d < day; d++) prior.push(c.get(d) ?? 0);
    const fast = spikeFiguresInCents(c.get(day) ?? 0, prior, factor);
    if (fast) return fast;
  }
  const w = spikeWindowOf(series, windowDays);
  return spikeFiguresByBig(w.amount, w.prior, factor);
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
    // the window's bounds, as spikeWindowOf takes them; its amounts are read only to judge it
    const last = series.today - 1;
    const from = coveredFrom(series, last - config.spikeWindowDays, last - 1);
    const priorDays = from === null ? 0 : last - from;
    const who = `Project ${input.projectId}`;
    const day = dayString(last);
    const lastCents = centsOn(series, last);
    const amount = lastCents !== undefined ? fromCents(lastCents) : cents(amountOn(series, last));
    const factor = config.spikeFactor;
    if (priorDays < MIN_SPIKE_DAYS) {
      const had = priorDays === 1 ? "1 day" : `${priorDays} days`;
      return {
        status: "not-judged",
        message: `The daily-spike rule is not judged for project ${input.projectId}: it has ${had} of charges before ${day} and needs at least ${MIN_SPIKE_DAYS}.`,
        figures: {
          day,
          amount,
          medianDays: priorDays,
          median: null,
          ratio: null,
          factor,
          threshold: null,
        },
      };
    }
    const fig = spikeFiguresOf(series, config.spikeWindowDays, factor);
    const status = fig.fail ? "fail" : "pass";
    const ratio = fig.ratio;
    const against =
      ratio === null
        ? `against the ${priorDays}-day median of ${formatMoney(fig.median)}`
        : `${formatFixed1(ratio)} times the ${priorDays}-day median of ${formatMoney(fig.median)}`;
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
        medianDays: priorDays,
        median: fig.median,
        ratio,
        factor,
        threshold: fig.threshold,
      },
    };
  },
};
