/**
 * Runway: how many days the balance lasts at the current daily rate.
 */
import Big = require("big.js");

import { dailyRateOf, type TrailingAverage, trailingOf } from "./average";
import { type BudgetConfig, parseBudgetConfig } from "./config";
import { cents, fromCents, tenthsDown, wholeCents } from "./money";
import { checkInput, toSeries } from "./series";
import type { BudgetInput } from "./types";

/** Runway is how long the money lasts, and the figures it was computed from. */
export interface Runway {
  /**
   * Days until the money runs out, rounded DOWN to 0.1 (9.96 is 9.9); 0 when the money is already gone;
   * `null` when nothing is spent (JSON has no Infinity).
   */
  days: number | null;
  /** True when the daily rate is 0 and the money is positive: the runway never ends. */
  infinite: boolean;
  /** True when the money is 0 or negative: the runway is 0 whatever the spend. */
  exhausted: boolean;
  /** The money counted: the balance, plus bonuses when `includeBonuses`, in cents. */
  available: number;
  /** The trailing daily average, in cents. */
  dailyAverage: number;
  /** The extra daily cost, in cents. */
  extraDailyCost: number;
  /** `max(0, dailyAverage + extraDailyCost)`. */
  dailyRate: number;
  /** Number of full days behind the trailing average (0: no data before today). */
  averagedDays: number;
}

/**
 * runwayOf computes the runway of an amount from a trailing average.
 * @internal
 */
export function runwayOf(available: number, trailing: TrailingAverage, extraDailyCost: number): Runway {
  const dailyRate = dailyRateOf(trailing.average, extraDailyCost);
  const base = {
    available,
    dailyAverage: trailing.average,
    extraDailyCost: cents(extraDailyCost),
    dailyRate,
    averagedDays: trailing.days,
  };
  if (available <= 0) return { days: 0, infinite: false, exhausted: true, ...base };
  if (dailyRate === 0) return { days: null, infinite: true, exhausted: false, ...base };
  return {
    days: runwayTenths(available, dailyRate),
    infinite: false,
    exhausted: false,
    ...base,
  };
}

/**
 * runwayTenths is available / dailyRate (both positive) rounded down to 0.1: in integers when both are whole
 * cents (floor(10·A / R) tenths; big.js's 20-place quotient never reaches the next tenth, since a quotient of
 * cents below 1e12 is at least 1/(10·R) from it), else in big.js.
 */
function runwayTenths(available: number, dailyRate: number): number {
  const a = wholeCents(available);
  const r = wholeCents(dailyRate);
  if (a !== undefined && r !== undefined && r > 0 && a > 0) {
    const tens = 10 * a;
    const t = (tens - (tens % r)) / r;
    return t === 0 ? 0 : t / 10;
  }
  return tenthsDown(new Big(available).div(dailyRate));
}

/**
 * availableOf is the money the runway and the min-balance rule count, in cents.
 * @internal
 */
export function availableOf(balance: number, bonuses: number, includeBonuses: boolean): number {
  if (!includeBonuses) return cents(balance);
  const a = wholeCents(balance);
  const b = wholeCents(bonuses);
  return a !== undefined && b !== undefined ? fromCents(a + b) : cents(new Big(balance).plus(bonuses));
}

/**
 * runwayDays is how many days the balance (plus bonuses with `includeBonuses`) lasts at the daily rate:
 * `available / max(0, trailingAverage + extraDailyCost)`, rounded down to 0.1 day.
 * A balance of 0 or less has a runway of 0 (`exhausted`), even with no spend; a positive balance with a
 * daily rate of 0 has an infinite runway: `days: null, infinite: true`.
 *
 * @example
 * const r = runwayDays(input, { extraDailyCost: 120 }); // runway after a change adding 120.00/day
 * r.infinite ? "no spend" : `${r.days} days at ${r.dailyRate}/day`;
 */
export function runwayDays(
  input: Pick<BudgetInput, "balance" | "bonuses" | "consumption" | "now">,
  opts: Pick<BudgetConfig, "trailingDays" | "extraDailyCost" | "includeBonuses"> = {},
): Runway {
  const cfg = parseBudgetConfig({
    trailingDays: opts.trailingDays,
    extraDailyCost: opts.extraDailyCost,
    includeBonuses: opts.includeBonuses,
  });
  checkInput(input, ["balance", "bonuses"]);
  const trailing = trailingOf(toSeries(input), cfg.trailingDays);
  return runwayOf(
    availableOf(input.balance, input.bonuses, cfg.includeBonuses),
    trailing,
    cfg.extraDailyCost,
  );
}
