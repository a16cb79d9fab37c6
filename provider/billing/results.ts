/**
 * Billing results, normalized: numbers, `day` as `YYYY-MM-DD`, items sorted, totals in decimal
 * arithmetic (docs/API.md#balance, docs/API.md#consumption).
 */
import Big = require("big.js");

import type { DailyCharge } from "../budget/types";
import { cents, fromCents, quotientHalfAway, toNumber } from "./money";
import { addDays, daysBetween } from "./periods";
import type { ProductId } from "./products";

/** ProjectBalance is a project's balance and bonuses (docs/API.md#balance, `getSubscriptionBalance`). */
export interface ProjectBalance {
  projectId: number;
  productId: ProductId;
  balance: number;
  bonuses: number;
  /** When the balance was read, ISO 8601 UTC. */
  fetchedAt: string;
}

/** DailyCharge is one day of charges (docs/API.md#consumption): `day` is `YYYY-MM-DD`. Shared with the budget rules. */
export type { DailyCharge } from "../budget/types";

/** ProjectConsumption is the per-day charges of a period and what follows from them. */
export interface ProjectConsumption {
  projectId: number;
  productId: ProductId;
  /** The period as sent, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
  periodFrom: string;
  periodTo: string;
  /** One item per day with charges (every day of the period with fillMissingDays), sorted by day. */
  items: DailyCharge[];
  total: { amount: number; bonuses: number };
  /** total.amount / days, to the cent. */
  dailyAverage: number;
  /** The days the period covers, up to today: the divisor of dailyAverage. */
  days: number;
  /** The day with the highest amount, or null with no charges. */
  highestDay: DailyCharge | null;
  /** The average of the last 7 days covered (missing days count as 0), to the cent. */
  trailing7DayAverage: number;
  /**
   * Days the endpoint answered in more than one item, with how many: their amounts are summed into one
   * day (and counted once in every figure). Empty when every day came once.
   */
  mergedDays?: { day: string; items: number }[];
  /**
   * Days whose amount is below zero (a refund or a correction): kept as they are, so they lower the
   * period's total and averages. Empty when no day is.
   */
  refundDays?: string[];
}

/**
 * @internal A day's amounts before they become numbers: each a decimal, or a number that is a whole number of
 * cents within ±1e12 (what {@link centsAmount} gives; `check` reads a hundred projects' days, and sums of those
 * are exact in whole cents without big.js).
 */
export interface RawDay {
  day: string;
  amount: Big | number;
  bonuses: Big | number;
}

/**
 * The arithmetic a summary needs, on one kind of amount: decimals (big.js), or whole cents as numbers, exact
 * while every sum stays within Number.MAX_SAFE_INTEGER.
 */
interface Arithmetic<T> {
  of(x: Big | number): T;
  plus(a: T, b: T): T;
  gt(a: T, b: T): boolean;
  negative(a: T): boolean;
  number(a: T): number;
  /** total / days, rounded to the cent half away from zero (days > 0), never -0. */
  average(total: T, days: number): number;
}

const DECIMALS: Arithmetic<Big> = {
  of: (x) => (typeof x === "number" ? new Big(x) : x),
  plus: (a, b) => a.plus(b),
  gt: (a, b) => a.gt(b),
  negative: (a) => a.lt(0),
  number: toNumber,
  average: (total, days) => cents(total.div(days)),
};

const CENTS: Arithmetic<number> = {
  // exact: x is the number nearest to a whole number of cents (centsAmount)
  of: (x) => Math.round((x as number) * 100),
  plus: (a, b) => a + b,
  gt: (a, b) => a > b,
  negative: (a) => a < 0,
  number: fromCents,
  // half away from zero, as cents() rounds the decimal quotient
  average: (total, days) => fromCents(quotientHalfAway(total, days)),
};

/**
 * inWholeCents says whether every amount of `raw` is a number of whole cents and the sum of their magnitudes
 * (so every partial sum) stays an exact integer of cents.
 */
function inWholeCents(raw: RawDay[]): boolean {
  let magnitude = 0;
  for (const r of raw) {
    if (typeof r.amount !== "number" || typeof r.bonuses !== "number") return false;
    magnitude += Math.abs(Math.round(r.amount * 100)) + Math.abs(Math.round(r.bonuses * 100));
  }
  return magnitude <= Number.MAX_SAFE_INTEGER;
}

/** @internal summarize builds a ProjectConsumption from merged days. */
export function summarize(
  head: {
    projectId: number;
    productId: ProductId;
    periodFrom: string;
    periodTo: string;
    fromDay: string;
    toDay: string;
  },
  raw: RawDay[],
  opts: { fillMissingDays?: boolean; today: string },
): ProjectConsumption {
  if (!inWholeCents(raw)) return summarizeIn(DECIMALS, head, raw, opts);
  return opts.fillMissingDays || !inOrder(raw)
    ? summarizeIn(CENTS, head, raw, opts)
    : summarizeOrdered(head, raw as OrderedCents, opts.today);
}

/** The days of a window as the endpoint nearly always answers them: whole cents, each day once, in order. */
type OrderedCents = { day: string; amount: number; bonuses: number }[];

/** inOrder says whether each day of `raw` comes once, after the one before (`YYYY-MM-DD` sorts as text). */
function inOrder(raw: RawDay[]): boolean {
  for (let i = 1; i < raw.length; i++) if (!(raw[i - 1]!.day < raw[i]!.day)) return false;
  return true;
}

/**
 * summarizeOrdered is {@link summarizeIn} over {@link CENTS} for days that come once each and in order, without
 * fillMissingDays: one pass, nothing merged or sorted (the same items, totals, highest day and refunds:
 * perf8.test.ts holds it to the big.js path).
 */
function summarizeOrdered(
  head: Parameters<typeof summarize>[0],
  raw: OrderedCents,
  today: string,
): ProjectConsumption {
  const lastDay = head.toDay < today ? head.toDay : today;
  const days = daysBetween(head.fromDay, lastDay);
  const trailingStart = addDays(lastDay, -6) > head.fromDay ? addDays(lastDay, -6) : head.fromDay;
  const trailingDays = daysBetween(trailingStart, lastDay);
  const items: DailyCharge[] = [];
  const refundDays: string[] = [];
  let amount = 0;
  let bonuses = 0;
  let trailing = 0;
  let highest = -1;
  let highestCents = 0;
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!;
    const a = CENTS.of(r.amount);
    const b = CENTS.of(r.bonuses);
    items.push({ day: r.day, totalAmount: CENTS.number(a), totalBonuses: CENTS.number(b) });
    amount += a;
    bonuses += b;
    if (highest < 0 || a > highestCents) {
      highest = i;
      highestCents = a;
    }
    if (r.day >= trailingStart && r.day <= lastDay) trailing += a;
    if (a < 0) refundDays.push(r.day);
  }
  const top = highest < 0 ? undefined : items[highest]!;
  return consumptionOf(CENTS, head, {
    items,
    amount,
    bonuses,
    days,
    highestDay: top ? { day: top.day, totalAmount: top.totalAmount, totalBonuses: top.totalBonuses } : null,
    trailing,
    trailingDays,
    mergedDays: [],
    refundDays,
  });
}

/** The sums a summary is made of, in `T` where they are money. */
interface Summed<T> {
  items: DailyCharge[];
  amount: T;
  bonuses: T;
  days: number;
  highestDay: DailyCharge | null;
  trailing: T;
  trailingDays: number;
  mergedDays: ProjectConsumption["mergedDays"];
  refundDays: string[];
}

/** consumptionOf is the one shape of a window's summary, its sums turned into numbers and averages. */
function consumptionOf<T>(
  math: Arithmetic<T>,
  head: Parameters<typeof summarize>[0],
  s: Summed<T>,
): ProjectConsumption {
  return {
    projectId: head.projectId,
    productId: head.productId,
    periodFrom: head.periodFrom,
    periodTo: head.periodTo,
    items: s.items,
    total: { amount: math.number(s.amount), bonuses: math.number(s.bonuses) },
    dailyAverage: s.days > 0 ? math.average(s.amount, s.days) : 0,
    days: s.days,
    highestDay: s.highestDay,
    trailing7DayAverage: s.trailingDays > 0 ? math.average(s.trailing, s.trailingDays) : 0,
    mergedDays: s.mergedDays,
    refundDays: s.refundDays,
  };
}

function summarizeIn<T>(
  math: Arithmetic<T>,
  head: Parameters<typeof summarize>[0],
  raw: RawDay[],
  opts: { fillMissingDays?: boolean; today: string },
): ProjectConsumption {
  interface Day {
    day: string;
    amount: T;
    bonuses: T;
  }
  const byDay = new Map<string, Day>();
  const seen = new Map<string, number>();
  for (const r of raw) {
    seen.set(r.day, (seen.get(r.day) ?? 0) + 1);
    const prev = byDay.get(r.day);
    const amount = math.of(r.amount);
    const bonuses = math.of(r.bonuses);
    byDay.set(
      r.day,
      prev
        ? { day: r.day, amount: math.plus(prev.amount, amount), bonuses: math.plus(prev.bonuses, bonuses) }
        : { day: r.day, amount, bonuses },
    );
  }
  const lastDay = head.toDay < opts.today ? head.toDay : opts.today;
  const days = daysBetween(head.fromDay, lastDay);
  let list = [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const toItem = (r: Day): DailyCharge => ({
    day: r.day,
    totalAmount: math.number(r.amount),
    totalBonuses: math.number(r.bonuses),
  });
  let items = list.map(toItem);
  if (opts.fillMissingDays) {
    items = [];
    for (let d = head.fromDay; d <= lastDay; d = addDays(d, 1)) {
      const r = byDay.get(d);
      items.push(r ? toItem(r) : { day: d, totalAmount: 0, totalBonuses: 0 });
    }
  }
  const zero = math.of(0);
  let amount = zero;
  let bonuses = zero;
  let highest: Day | undefined;
  for (const r of list) {
    amount = math.plus(amount, r.amount);
    bonuses = math.plus(bonuses, r.bonuses);
    if (!highest || math.gt(r.amount, highest.amount)) highest = r;
  }
  const trailingStart = addDays(lastDay, -6) > head.fromDay ? addDays(lastDay, -6) : head.fromDay;
  const trailingDays = daysBetween(trailingStart, lastDay);
  list = list.filter((r) => r.day >= trailingStart && r.day <= lastDay);
  let trailing = zero;
  for (const r of list) trailing = math.plus(trailing, r.amount);
  return consumptionOf(math, head, {
    items,
    amount,
    bonuses,
    days,
    highestDay: highest ? toItem(highest) : null,
    trailing,
    trailingDays,
    mergedDays: [...seen]
      .filter(([, n]) => n > 1)
      .map(([day, n]) => ({ day, items: n }))
      .sort((a, b) => (a.day < b.day ? -1 : 1)),
    refundDays: [...byDay.values()]
      .filter((r) => math.negative(r.amount))
      .map((r) => r.day)
      .sort(),
  });
}
